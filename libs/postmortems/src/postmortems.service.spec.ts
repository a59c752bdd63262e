import { describe, expect, it } from 'vitest';
import { ifMatchAllows } from './postmortems.service';

describe('ifMatchAllows', () => {
  it('allows no header, *, and the current revision as a strong or weak tag, alone or in a list', () => {
    expect(ifMatchAllows(undefined, 3)).toBe(true);
    expect(ifMatchAllows('*', 3)).toBe(true);
    expect(ifMatchAllows('"3"', 3)).toBe(true);
    expect(ifMatchAllows('W/"3"', 3)).toBe(true);
    expect(ifMatchAllows('"1", "3"', 3)).toBe(true);
  });

  it('refuses another revision and anything that is not a quoted tag', () => {
    expect(ifMatchAllows('"2"', 3)).toBe(false);
    expect(ifMatchAllows('3', 3)).toBe(false);
    expect(ifMatchAllows('', 3)).toBe(false);
    expect(ifMatchAllows('"33"', 3)).toBe(false);
  });
});
