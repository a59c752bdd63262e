import { describe, expect, it } from 'vitest';
import { capOutput } from './output-cap';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const matrix = (series: number, points: number) => ({
  resultType: 'matrix',
  series: Array.from({ length: series }, (_, s) => ({
    metric: { __name__: 'up', instance: `host-${s}:9100` },
    values: Array.from({ length: points }, (_, p) => [new Date(Date.UTC(2026, 0, 1, 0, 0, p)).toISOString(), String(p)]),
  })),
});

describe('capOutput', () => {
  it('returns output that fits unchanged and not truncated', () => {
    const output = matrix(2, 5);
    expect(capOutput(output, 64 * 1024)).toEqual({ output, truncated: false, notes: [] });
  });

  it('thins every series evenly first, keeping first and last points, and says how many it kept', () => {
    const { output, truncated, notes } = capOutput(matrix(3, 400), 16 * 1024);
    const series = (output as ReturnType<typeof matrix>).series;
    expect(truncated).toBe(true);
    expect(size(output)).toBeLessThanOrEqual(16 * 1024);
    expect(series).toHaveLength(3);
    for (const s of series) {
      expect(s.values[0][1]).toBe('0');
      expect(s.values[s.values.length - 1][1]).toBe('399');
      expect(s.values.length).toBeLessThan(400);
    }
    expect(notes).toEqual([{ path: 'series[].values', kept: series.reduce((n, s) => n + s.values.length, 0), of: 1200, unit: 'items' }]);
    expect((output as { truncation: unknown }).truncation).toEqual(notes);
  });

  it('drops whole series once they are down to a few points each', () => {
    const { output, notes } = capOutput(matrix(200, 50), 8 * 1024);
    const series = (output as ReturnType<typeof matrix>).series;
    expect(size(output)).toBeLessThanOrEqual(8 * 1024);
    expect(series.length).toBeLessThan(200);
    expect(series.every((s) => s.values.length === 10)).toBe(true);
    expect(notes).toContainEqual({ path: 'series', kept: series.length, of: 200, unit: 'items' });
  });

  it('keeps the first items of other lists, and cuts long strings when nothing else is left', () => {
    const items = { count: 300, targets: Array.from({ length: 300 }, (_, i) => ({ instance: `host-${i}`, lastError: 'x'.repeat(50) })) };
    const capped = capOutput(items, 2048);
    const targets = (capped.output as typeof items).targets;
    expect(targets[0].instance).toBe('host-0');
    expect(targets[targets.length - 1].instance).toBe(`host-${targets.length - 1}`);
    expect((capped.output as typeof items).count).toBe(300);

    const huge = capOutput({ message: 'y'.repeat(10_000) }, 2048);
    expect(size(huge.output)).toBeLessThanOrEqual(2048);
    expect((huge.output as { message: string }).message).toMatch(/^y+…$/);
    expect(huge.notes[0]).toMatchObject({ path: 'message', of: 10_000, unit: 'characters' });
  });

  it('cuts an output that is itself a list, wrapping it to carry the note', () => {
    const capped = capOutput(
      Array.from({ length: 1000 }, (_, i) => `value-${i}`),
      1024,
    );
    expect(size(capped.output)).toBeLessThanOrEqual(1024);
    expect(capped.output).toMatchObject({ value: expect.any(Array), truncation: [{ path: '$', of: 1000, unit: 'items' }] });
  });
});
