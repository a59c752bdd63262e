export * from './alerts.module';
export * from './payloads/parse-payload';
export * from './payloads/normalized-alert';
export * from './admission/delivery-records.repository';
