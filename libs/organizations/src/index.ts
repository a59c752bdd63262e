export * from './dto/organization.view';
export * from './organizations.module';
export * from './organizations.service';
export * from './dto/create-organization.dto';
export * from './policy/policy.dto';
export * from './policy/policy.service';
