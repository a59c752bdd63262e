export * from './activity.service';
export * from './conclusion.types';
export * from './engine/investigation-engine.module';
export * from './investigation.entity';
export * from './investigations.module';
export * from './investigations.service';
export * from './reasoning/reasoner';
export * from './tools';
