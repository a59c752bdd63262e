import { describe, expect, it } from 'vitest';
import { maskLine, TemplateMiner, templateText } from './log-templates';

describe('maskLine', () => {
  it('masks what varies between lines of one kind and keeps the words that say what happened', () => {
    expect(maskLine('dial tcp 10.0.3.7:5432: connect: connection refused')).toBe('dial tcp <ip>:<port>: connect: connection refused');
    expect(maskLine('error connecting to inventory-db:5432: connection refused')).toBe('error connecting to inventory-db:<port>: connection refused');
    expect(maskLine('order 4bf92f35-77b3-4da6-a3ce-929d0e0e4736 paid in 250ms')).toBe('order <uuid> paid in <duration>');
    expect(maskLine('trace=4bf92f3577b34da6a3ce929d0e0e4736 span=0x1f status=500 took=1.5s')).toBe('trace=<hex> span=<hex> status=<num> took=<duration>');
    expect(maskLine('2026-11-22T10:02:03.123Z level=error user="alice" msg="payment failed"')).toBe('<time> level=error user="<*>" msg="payment failed"');
    expect(maskLine('peer [2001:db8::1]:443 and fe80::1ff:fe23:4567:890a gone')).toBe('peer <ip> and <ip> gone');
    expect(maskLine('retry 3 of 5 after 12:01:02')).toBe('retry <num> of <num> after <time>');
    expect(maskLine('pod checkout-7d9f8b wrote 512MiB')).toBe('pod checkout-7d9f8b wrote <size>');
  });
});

describe('TemplateMiner', () => {
  it('groups lines that differ in their values into one template, and lines that say different things into others', () => {
    const miner = new TemplateMiner();
    const a = miner.add('GET /api/orders/12 200 in 12ms from 10.0.0.1');
    const b = miner.add('GET /api/orders/13 200 in 40ms from 10.0.0.2');
    const c = miner.add('POST /api/pay 500 in 3ms from 10.0.0.9');
    const d = miner.add('error connecting to inventory-db:5432: connection refused');
    const e = miner.add('error connecting to inventory-db:5433: connection refused');
    expect(a).toBe(b);
    expect(d).toBe(e);
    expect(new Set([a.id, c.id, d.id]).size).toBe(3);
    expect(templateText(a)).toBe('GET /api/orders/<num> <num> in <duration> from <ip>');
    expect(templateText(d)).toBe('error connecting to inventory-db:<port>: connection refused');
  });

  it('keeps a line whose words differ from every template apart, however many lines came before', () => {
    const miner = new TemplateMiner();
    for (let i = 0; i < 50; i++) miner.add(`user ${i} signed in from 10.1.0.${i}`);
    const other = miner.add('user 7 signed out after 20m');
    expect(miner.templates).toHaveLength(2);
    expect(templateText(other)).toBe('user <num> signed out after <duration>');
  });
});
