export * from './change-retention';
export * from './changes.module';
export * from './changes.service';
export { ChangesRepository } from './changes.repository';
export type { ChangeFilter, ChangeOrigin, RecordedChange } from './changes.repository';
export * from './formats/normalized-change';
export { parseChangeEvent } from './formats/parse-change-event';
export type { ChangeView } from './dto/change.view';
