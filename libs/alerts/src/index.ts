export * from './alerts.module';
export * from './payloads/parse-payload';
export * from './payloads/normalized-alert';
export * from './deliveries/webhook-deliveries.repository';
export * from './admission/delivery-records.repository';
