import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsInt, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IsOptionalNonNull, ROLES, Role } from '@svc/platform';

export class SessionPolicyDto {
  @ApiProperty({ minimum: 300, maximum: 30 * 24 * 3600, default: 43200, description: 'Idle lifetime, seconds' })
  @IsInt()
  @Min(300)
  @Max(30 * 24 * 3600)
  idleSeconds!: number;

  @ApiProperty({ minimum: 900, maximum: 90 * 24 * 3600, default: 604800, description: 'Absolute lifetime, seconds' })
  @IsInt()
  @Min(900)
  @Max(90 * 24 * 3600)
  absoluteSeconds!: number;
}

export class InvestigationBudgetsDto {
  @ApiProperty({ minimum: 1, maximum: 200, default: 24 })
  @IsInt()
  @Min(1)
  @Max(200)
  toolRuns!: number;

  @ApiProperty({ minimum: 1, maximum: 100, default: 12 })
  @IsInt()
  @Min(1)
  @Max(100)
  reasonerTurns!: number;

  @ApiProperty({ minimum: 10, maximum: 3600, default: 300 })
  @IsInt()
  @Min(10)
  @Max(3600)
  wallClockSeconds!: number;

  @ApiProperty({ minimum: 1, maximum: 50, default: 3 })
  @IsInt()
  @Min(1)
  @Max(50)
  stagnationTurns!: number;

  @ApiProperty({ minimum: 1000, maximum: 2_000_000, default: 100000 })
  @IsInt()
  @Min(1000)
  @Max(2_000_000)
  contextTokens!: number;
}

/** How long the Organization's records of each kind are kept. */
export class RetentionPolicyDto {
  @ApiProperty({
    minimum: 1,
    maximum: 3650,
    default: 90,
    description: 'Days a change (change events) is kept after it occurred; older ones are deleted by the worker',
  })
  @IsInt()
  @Min(1)
  @Max(3650)
  changeDays!: number;
}

/** The whole Policy document: what GET returns and PUT replaces. */
export class PolicyDto {
  @ApiProperty({ type: SessionPolicyDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => SessionPolicyDto)
  sessions!: SessionPolicyDto;

  @ApiProperty({ default: true })
  @IsBoolean()
  apiTokensAllowed!: boolean;

  @ApiProperty({ enum: ROLES, nullable: true, description: 'Role given to unknown OIDC users on first sign-in; null refuses them' })
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  oidcAutoProvision!: Role | null;

  @ApiProperty({ type: InvestigationBudgetsDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => InvestigationBudgetsDto)
  investigationBudgets!: InvestigationBudgetsDto;

  @ApiProperty({ type: RetentionPolicyDto, required: false, description: 'Always returned; a PUT without it sets the defaults' })
  @IsOptionalNonNull()
  @ValidateNested()
  @Type(() => RetentionPolicyDto)
  retention?: RetentionPolicyDto;
}
