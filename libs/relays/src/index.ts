export * from './relays.module';
export * from './relays.service';
export * from './relays.repository';
export * from './relay-secrets';
export * from './gateway/relay-gateway.module';
export * from './gateway/relay-gateway';
export * from './relay-jobs.service';
