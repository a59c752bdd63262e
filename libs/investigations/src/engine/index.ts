export * from './investigation-engine.module';
