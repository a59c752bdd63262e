import { describe, expect, it } from 'vitest';
import { describeInputFault, findInputFault, isNestedDeeperThan, isUnsafeText } from './input-hygiene';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('findInputFault', () => {
  it('finds NUL and lone surrogates in values and keys, naming the path', () => {
    expect(findInputFault({ name: 'a\u0000b' })).toEqual({ path: 'body.name', problem: 'unsafe_text' });
    expect(findInputFault({ items: ['ok', 'x\ud800'] })).toEqual({ path: 'body.items[1]', problem: 'unsafe_text' });
    expect(findInputFault({ 'bad\udc00key': 1 })?.path).toBe('body["bad\\udc00key"]');
    expect(findInputFault({ email: 'x' }, 'query')).toBeNull();
  });

  it('accepts paired surrogates and ordinary text', () => {
    expect(isUnsafeText('emoji \ud83d\ude00 ok')).toBe(false);
    expect(findInputFault({ text: 'emoji \ud83d\ude00', n: 1, b: null })).toBeNull();
  });

  it('accepts 64 levels and refuses 65, the top-level value being level 1', () => {
    // nested(n) is n objects around a string: n levels of containers.
    expect(findInputFault(nested(64))).toBeNull();
    const fault = findInputFault(nested(65));
    expect(fault?.problem).toBe('too_deep');
    expect(describeInputFault(fault!)).toMatch(/nested deeper than 64 levels/);
  });

  it('does not exhaust the stack on very deep values', () => {
    expect(findInputFault(nested(100_000))?.problem).toBe('too_deep');
  });
});

describe('isNestedDeeperThan', () => {
  it('counts containers only, ignores text, and stops at the limit', () => {
    expect(isNestedDeeperThan(nested(64))).toBe(false);
    expect(isNestedDeeperThan(nested(65))).toBe(true);
    expect(isNestedDeeperThan({ text: 'a\u0000b' })).toBe(false);
    expect(isNestedDeeperThan(nested(100_000))).toBe(true);
  });
});
