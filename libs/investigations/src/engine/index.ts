export * from './investigation-engine.module';
export * from '../reasoning/language-model-reasoner';
