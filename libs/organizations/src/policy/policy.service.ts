import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuditService } from '@svc/audit';
import { AppConfig, AuditContext, InvalidInputError, Timestamp } from '@svc/platform';
import { PolicyDto } from './policy.dto';
import { Policy } from './policy.entity';

/** How long changes are kept when the Policy does not say (PagerDuty keeps change events as long). */
export const DEFAULT_CHANGE_RETENTION_DAYS = 90;

/**
 * Per-Organization settings. An Organization without a stored Policy has the defaults
 * (decisions §2 and §6; session lifetimes from the deployment settings).
 */
@Injectable()
export class PolicyService {
  constructor(
    @InjectRepository(Policy) private readonly policies: Repository<Policy>,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  defaults(): PolicyDto {
    return {
      sessions: { idleSeconds: this.config.SVC_SESSION_IDLE_SECONDS, absoluteSeconds: this.config.SVC_SESSION_ABSOLUTE_SECONDS },
      apiTokensAllowed: true,
      oidcAutoProvision: null,
      investigationBudgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
      retention: { changeDays: DEFAULT_CHANGE_RETENTION_DAYS },
    };
  }

  async get(organizationId: string, manager?: EntityManager): Promise<PolicyDto> {
    const row = await (manager?.getRepository(Policy) ?? this.policies).findOneBy({ organizationId });
    return row ? toDto(row) : this.defaults();
  }

  /** Replaces the whole Policy, recording before and after in the audit trail; returns the new one. */
  update(organizationId: string, policy: PolicyDto, context: AuditContext): Promise<PolicyDto> {
    return this.dataSource.transaction(async (manager) => {
      const previous = await this.replace(manager, organizationId, policy, context.actorId ?? context.actorKind);
      const after = await this.get(organizationId, manager);
      await this.audit.record(manager, organizationId, context, {
        action: 'policy.update',
        targetKind: 'policy',
        targetId: organizationId,
        detail: { before: previous, after },
      });
      return after;
    });
  }

  /** Replaces the whole Policy; returns the previous one (for the audit record). */
  async replace(manager: EntityManager, organizationId: string, policy: PolicyDto, userId: string): Promise<PolicyDto> {
    if (policy.sessions.idleSeconds > policy.sessions.absoluteSeconds) {
      throw new InvalidInputError('Invalid input: sessions.idleSeconds must not exceed sessions.absoluteSeconds');
    }
    const previous = await this.get(organizationId, manager);
    await manager.getRepository(Policy).upsert(
      {
        organizationId,
        sessionIdleSeconds: policy.sessions.idleSeconds,
        sessionAbsoluteSeconds: policy.sessions.absoluteSeconds,
        apiTokensAllowed: policy.apiTokensAllowed,
        oidcAutoProvisionRole: policy.oidcAutoProvision,
        investigationToolRuns: policy.investigationBudgets.toolRuns,
        investigationReasonerTurns: policy.investigationBudgets.reasonerTurns,
        investigationWallClockSeconds: policy.investigationBudgets.wallClockSeconds,
        investigationStagnationTurns: policy.investigationBudgets.stagnationTurns,
        investigationContextTokens: policy.investigationBudgets.contextTokens,
        changeRetentionDays: policy.retention?.changeDays ?? DEFAULT_CHANGE_RETENTION_DAYS,
        updatedAt: Timestamp.now(),
        updatedBy: userId,
      },
      ['organizationId'],
    );
    return previous;
  }
}

function toDto(row: Policy): PolicyDto {
  return {
    sessions: { idleSeconds: row.sessionIdleSeconds, absoluteSeconds: row.sessionAbsoluteSeconds },
    apiTokensAllowed: row.apiTokensAllowed,
    oidcAutoProvision: row.oidcAutoProvisionRole,
    investigationBudgets: {
      toolRuns: row.investigationToolRuns,
      reasonerTurns: row.investigationReasonerTurns,
      wallClockSeconds: row.investigationWallClockSeconds,
      stagnationTurns: row.investigationStagnationTurns,
      contextTokens: row.investigationContextTokens,
    },
    retention: { changeDays: row.changeRetentionDays },
  };
}
