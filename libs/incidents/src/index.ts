export * from './admission.types';
export * from './incidents.module';
export * from './incidents.service';
