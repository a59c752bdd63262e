import { describe, expect, it } from 'vitest';
import { childPath, indexPath, isAbsent, isObject } from './json-fields';

describe('json fields', () => {
  it('takes only plain objects for objects, and null or undefined for absent', () => {
    expect([{}, [], null, 'a', 1].map(isObject)).toEqual([true, false, false, false, false]);
    expect([undefined, null, '', 0, false].map(isAbsent)).toEqual([true, true, false, false, false]);
  });

  it('names child fields, quoting odd keys and shortening long ones', () => {
    expect(childPath('', 'alerts')).toBe('alerts');
    expect(childPath(indexPath('alerts', 2), 'labels')).toBe('alerts[2].labels');
    expect(childPath('labels', 'a-b')).toBe('labels["a-b"]');
    expect(childPath('labels', 'x'.repeat(65))).toBe(`labels[${JSON.stringify(`${'x'.repeat(64)}…`)}]`);
  });
});
