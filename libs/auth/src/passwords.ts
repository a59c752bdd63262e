import { Injectable, OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id at OWASP's recommended minimum (19 MiB, 2 iterations, 1 lane). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class Passwords implements OnModuleInit {
  private dummyHash = '';

  async onModuleInit(): Promise<void> {
    // Verified against when the account does not exist, so both paths cost one argon2 verify.
    this.dummyHash = await argon2.hash('not-a-password-of-anyone', OPTIONS);
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** Constant work whether or not there is a hash to check. */
  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    try {
      const ok = await argon2.verify(hash ?? this.dummyHash, password);
      return ok && Boolean(hash);
    } catch {
      return false;
    }
  }
}
