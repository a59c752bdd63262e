import { describe, expect, it } from 'vitest';
import { JitteredBackoff } from './backoff';

describe('JitteredBackoff', () => {
  it('doubles up to the cap, each delay between half and all of its step, and starts over on reset', () => {
    const low = new JitteredBackoff(500, 4000, () => 0);
    expect([low.next(), low.next(), low.next(), low.next(), low.next()]).toEqual([250, 500, 1000, 2000, 2000]);
    const high = new JitteredBackoff(500, 4000, () => 1);
    expect([high.next(), high.next(), high.next(), high.next(), high.next()]).toEqual([500, 1000, 2000, 4000, 4000]);
    high.reset();
    expect(high.next()).toBe(500);
  });
});
