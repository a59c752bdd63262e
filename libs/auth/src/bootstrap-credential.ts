import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { AppConfig, PlatformSettingsService, ROOT_LOGGER } from '@svc/platform';

const SETTING = 'bootstrap_credential_sha256';

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The one-time deployment credential that authorizes bootstrap. SVC_BOOTSTRAP_CREDENTIAL when set;
 * otherwise one is generated at the first start, its hash kept, and the value logged that once.
 */
@Injectable()
export class BootstrapCredential implements OnApplicationBootstrap {
  private expected?: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: PlatformSettingsService,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.load();
  }

  async matches(presented: string): Promise<boolean> {
    const expected = await this.load();
    return timingSafeEqual(sha256(presented), expected);
  }

  private async load(): Promise<Buffer> {
    if (this.expected) return this.expected;
    if (this.config.SVC_BOOTSTRAP_CREDENTIAL) {
      this.expected = sha256(this.config.SVC_BOOTSTRAP_CREDENTIAL);
      return this.expected;
    }
    const generated = randomBytes(24).toString('base64url');
    const stored = await this.settings.putIfAbsent(SETTING, sha256(generated).toString('hex'));
    if (stored.created) {
      // Shown once, on purpose: it is how the operator creates the first Organization.
      this.logger.warn(
        { bootstrapCredential: generated },
        'Generated the bootstrap credential (shown once). Use it as `Authorization: Bearer <credential>` on POST /api/v1/auth/local/bootstrap.',
      );
    }
    this.expected = Buffer.from(stored.value, 'hex');
    return this.expected;
  }
}
