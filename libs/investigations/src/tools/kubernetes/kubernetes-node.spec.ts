import { describe, expect, it } from 'vitest';
import { parseQuantity } from './kubernetes-node.tool';

/** resource.Quantity as the API writes it: decimal and binary suffixes, milli and smaller, exponents. */
describe('parseQuantity', () => {
  it('reads CPU and memory quantities', () => {
    expect(parseQuantity('250m')).toBe(0.25);
    expect(parseQuantity('1.5')).toBe(1.5);
    expect(parseQuantity('3920m')).toBeCloseTo(3.92);
    expect(parseQuantity('128Mi')).toBe(128 * 2 ** 20);
    expect(parseQuantity('15241244Ki')).toBe(15241244 * 1024);
    expect(parseQuantity('1G')).toBe(1e9);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('100n')).toBeCloseTo(1e-7);
  });

  it('refuses what is not a quantity', () => {
    expect(parseQuantity('lots')).toBeUndefined();
    expect(parseQuantity('1 Gi')).toBeUndefined();
    expect(parseQuantity(undefined)).toBeUndefined();
  });
});
