import { Column, ColumnOptions } from 'typeorm';

/** A timestamptz column whose value is a Timestamp (microseconds), never a Date. */
export function TimestampColumn(options: Omit<ColumnOptions, 'type'> = {}): PropertyDecorator {
  return Column({ ...options, type: 'timestamptz' });
}
