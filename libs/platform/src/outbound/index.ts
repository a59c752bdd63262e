export * from './address-rules';
export * from './kubernetes-client';
export * from './outbound-client';
export * from './outbound-error';
export * from './outbound-policy';
export * from './outbound.module';
export * from './upstream-error-message';
