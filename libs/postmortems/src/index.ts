// The worker's narrative job (it loads the model SDKs) is its own entry, `@svc/postmortems/worker`.
export * from './postmortems.module';
export * from './postmortems.service';
export * from './postmortems.repository';
export * from './postmortem.types';
export type { PostmortemFacts, PostmortemNotes } from './postmortem-draft';
export { draftFromFacts } from './postmortem-draft';
