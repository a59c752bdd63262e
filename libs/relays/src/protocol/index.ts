export * from './capabilities';
export * from './relay-protocol';
