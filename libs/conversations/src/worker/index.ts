export * from './conversations-worker.module';
