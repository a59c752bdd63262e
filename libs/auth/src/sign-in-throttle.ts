import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig, DomainError, SharedLimits } from '@svc/platform';

/**
 * Password guessing limits, shared by every API instance through Redis: after
 * SVC_SIGN_IN_MAX_FAILURES failures (10) for an account or from a source address within
 * SVC_SIGN_IN_WINDOW_SECONDS (15 minutes), attempts get 429 with Retry-After, before any password
 * is hashed. A success clears the account's count.
 */
@Injectable()
export class SignInThrottle implements OnModuleDestroy {
  private readonly limits: SharedLimits;
  private readonly byAccount: RateLimiterRedis;
  private readonly byAddress: RateLimiterRedis;
  private readonly maxFailures: number;

  constructor(config: AppConfig) {
    this.maxFailures = config.SVC_SIGN_IN_MAX_FAILURES;
    const window = config.SVC_SIGN_IN_WINDOW_SECONDS;
    this.limits = new SharedLimits(config.REDIS_URL, 'Sign-in throttle');
    this.byAccount = this.limits.limiter(`${config.SVC_QUEUE_PREFIX}:sign-in-failures:account`, this.maxFailures, window);
    this.byAddress = this.limits.limiter(`${config.SVC_QUEUE_PREFIX}:sign-in-failures:address`, this.maxFailures, window);
  }

  onModuleDestroy(): void {
    this.limits.close();
  }

  /** Throws 429 when the account or the address has used up its failures. */
  async assertAllowed(email: string, address: string | undefined): Promise<void> {
    const [account, source] = await Promise.all([this.byAccount.get(accountKey(email)), address ? this.byAddress.get(address) : null]);
    const blocked = [account, source].filter((r): r is RateLimiterRes => r !== null && r.consumedPoints >= this.maxFailures);
    if (blocked.length > 0) {
      const retryAfterSeconds = Math.max(...blocked.map((r) => r.msBeforeNext)) / 1000;
      throw new DomainError('rate_limited', 'Too many failed sign-in attempts; try again later', { retryAfterSeconds });
    }
  }

  async recordFailure(email: string, address: string | undefined): Promise<void> {
    await Promise.all([this.byAccount.penalty(accountKey(email), 1), address ? this.byAddress.penalty(address, 1) : undefined]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byAccount.delete(accountKey(email));
  }
}

/** Accounts are counted by a hash of the normalized email, so Redis never holds the address itself. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}
