export * from './activity-notifier';
export * from './investigation-event-stream';
