export * from './catalog/integration-types';
export * from './integrations.module';
export * from './integrations.service';
