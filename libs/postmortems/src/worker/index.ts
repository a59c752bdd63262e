export * from './postmortems-worker.module';
