export * from './capabilities';
export * from './relay-protocol';
export * from './batches';
