import { types } from 'pg';
import { Timestamp } from '../time/timestamp';

const TIMESTAMPTZ_OID = 1184;

/** Makes node-postgres hand out timestamptz values as microsecond Timestamps instead of Dates. */
export function installTimestampTypeParser(): void {
  types.setTypeParser(TIMESTAMPTZ_OID, (text: string) => Timestamp.fromPostgres(text));
}
