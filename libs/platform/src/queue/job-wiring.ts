import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { JobDeclaration } from './job-declaration';

const BULL_QUEUE = 'bull:module_queue';
const BULL_PROCESS = 'bull:module_queue_process';

export class JobWiringError extends Error {}

/**
 * Compares the declared jobs with the processors found in the module graph. Runs while the
 * worker's providers are being created, before any processor starts taking jobs: a job without
 * exactly one processor, or a processor for an undeclared job, stops the boot.
 */
@Injectable()
export class JobWiring {
  constructor(discovery: DiscoveryService, scanner: MetadataScanner) {
    const declared = new Map<string, string>();
    const handled = new Map<string, string[]>();
    for (const wrapper of discovery.getProviders()) {
      if (wrapper.instance instanceof JobDeclaration) {
        for (const job of wrapper.instance.jobs) declared.set(`${wrapper.instance.queue}/${job}`, job);
      }
      const metatype = wrapper.metatype as (Function & { prototype: object }) | null;
      if (!metatype || wrapper.inject) continue;
      const queueMeta = Reflect.getMetadata(BULL_QUEUE, metatype) as { name?: string } | undefined;
      if (!queueMeta) continue;
      for (const method of scanner.getAllMethodNames(metatype.prototype)) {
        const processMeta = Reflect.getMetadata(BULL_PROCESS, (metatype.prototype as Record<string, Function>)[method]) as { name?: string } | undefined;
        if (!processMeta) continue;
        const key = `${queueMeta.name ?? 'default'}/${processMeta.name ?? '*'}`;
        handled.set(key, [...(handled.get(key) ?? []), `${metatype.name}.${method}`]);
      }
    }
    const problems: string[] = [];
    for (const key of declared.keys()) {
      const handlers = handled.get(key) ?? [];
      if (handlers.length === 0) problems.push(`job ${key} has no processor`);
      if (handlers.length > 1) problems.push(`job ${key} has ${handlers.length} processors: ${handlers.join(', ')}`);
    }
    for (const [key, handlers] of handled) {
      if (!declared.has(key)) problems.push(`processor ${handlers.join(', ')} handles undeclared job ${key}`);
    }
    if (problems.length > 0) throw new JobWiringError(`Job wiring is broken:\n  ${problems.join('\n  ')}`);
    this.jobs = [...declared.keys()].sort();
  }

  readonly jobs: string[];
}
