import { BullModule, Process, Processor } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JobWiring, JobWiringError, QueueModule } from '@svc/platform';

@Processor('wired')
class AlphaProcessor {
  @Process('alpha')
  alpha() {
    return undefined;
  }
}

@Processor('wired')
class SecondAlphaProcessor {
  @Process('alpha')
  alphaAgain() {
    return undefined;
  }
}

@Processor('wired')
class StrayProcessor {
  @Process('stray')
  stray() {
    return undefined;
  }
}

/** Compiles a module graph the way the worker does; JobWiring runs while providers are created. */
async function bootWorker(feature: Function) {
  return Test.createTestingModule({
    imports: [BullModule.forRoot({ prefix: `w${randomBytes(4).toString('hex')}` }), DiscoveryModule, feature as never],
    providers: [JobWiring],
  }).compile();
}

describe('worker boot checks the job wiring', () => {
  it('boots when every declared job has exactly one processor', async () => {
    @Module({ imports: [QueueModule.forFeature('wired', ['alpha'])], providers: [AlphaProcessor] })
    class Wired {}
    const moduleRef = await bootWorker(Wired);
    expect(moduleRef.get(JobWiring).jobs).toEqual(['wired/alpha']);
    await moduleRef.close();
  });

  it('refuses to boot when a declared job has no processor', async () => {
    @Module({ imports: [QueueModule.forFeature('wired', ['alpha', 'beta'])], providers: [AlphaProcessor] })
    class MissingProcessor {}
    await expect(bootWorker(MissingProcessor)).rejects.toThrow(/job wired\/beta has no processor/);
  });

  it('refuses to boot when a job has two processors', async () => {
    @Module({ imports: [QueueModule.forFeature('wired', ['alpha'])], providers: [AlphaProcessor, SecondAlphaProcessor] })
    class TwoProcessors {}
    await expect(bootWorker(TwoProcessors)).rejects.toThrow(/job wired\/alpha has 2 processors/);
  });

  it('refuses to boot when a processor handles a job nobody declared', async () => {
    @Module({ imports: [QueueModule.forFeature('wired', ['alpha'])], providers: [AlphaProcessor, StrayProcessor] })
    class Stray {}
    await expect(bootWorker(Stray)).rejects.toThrow(JobWiringError);
  });
});
