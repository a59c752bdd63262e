export * from './access.guard';
export * from './auth.module';
export * from './sessions.service';
export * from './oidc/oidc.module';
export * from './api-tokens.service';
export * from './sign-in-locks.repository';
