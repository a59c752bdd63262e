export * from './audit.module';
export * from './audit.service';
