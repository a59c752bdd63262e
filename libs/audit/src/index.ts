export * from './audit-context';
export * from './audit.module';
export * from './audit.service';
