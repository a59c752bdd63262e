import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config';
import { parseAddress, parseAddressRules, parseCidr } from './address-rules';
import { OutboundPolicy, OwnDependency } from './outbound-policy';
import { resolveOwnDependencies } from './own-dependencies';
import { upstreamErrorMessage } from './upstream-error-message';

const none: OwnDependency[] = [];
const allowed = (policy: OutboundPolicy, address: string, port = 80, deps = none) => policy.decide(address, port, deps).allowed;

describe('outbound address rules', () => {
  it('parses CIDRs, single addresses and the three words', () => {
    expect(parseAddressRules('10.0.0.0/8, 192.168.1.7 ,fd00::/8')).toEqual([
      { label: '10.0.0.0/8', family: 4, network: 0x0a000000n, prefix: 8 },
      { label: '192.168.1.7', family: 4, network: 0xc0a80107n, prefix: 32 },
      { label: 'fd00::/8', family: 6, network: 0xfdn << 120n, prefix: 8 },
    ]);
    expect(parseAddressRules('loopback').map((r) => r.label)).toEqual(['loopback', 'loopback', 'loopback', 'loopback']);
    expect(parseAddressRules('Private').length).toBe(5);
    expect(parseAddressRules('')).toEqual([]);
    expect(parseAddressRules(' , ')).toEqual([]);
    // Host bits are cleared; a mapped IPv6 range is the IPv4 range.
    expect(parseCidr('10.1.2.3/8').network).toBe(0x0a000000n);
    expect(parseCidr('::ffff:10.0.0.0/104')).toMatchObject({ family: 4, network: 0x0a000000n, prefix: 8 });
  });

  it('refuses malformed entries with a message naming them', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fe80::/129', 'example.com', '10.0.0.0/8/1', '10.0.0.0/-1', '10.0.0.0/', 'internal']) {
      expect(() => parseAddressRules(`loopback,${bad}`), bad).toThrow(bad);
    }
  });

  it('reads IPv4-mapped IPv6 addresses as IPv4, and IPv6 in every spelling', () => {
    expect(parseAddress('::ffff:169.254.169.254')).toEqual({ family: 4, value: 0xa9fea9fen });
    expect(parseAddress('[::ffff:a9fe:a9fe]')).toEqual({ family: 4, value: 0xa9fea9fen });
    expect(parseAddress('::1')).toEqual({ family: 6, value: 1n });
    expect(parseAddress('fe80::1%eth0')).toEqual({ family: 6, value: (0xfe80n << 112n) + 1n });
    expect(parseAddress('example.com')).toBeNull();
    expect(parseAddress('64:ff9b::a9fe:a9fe')).toEqual({ family: 4, value: 0xa9fea9fen });
  });
});

describe('the outbound policy', () => {
  it('by default allows loopback and private ranges and refuses link-local', () => {
    const policy = OutboundPolicy.parse(undefined, undefined);
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', '172.20.0.1', 'fd12::1', '203.0.113.9', '2001:db8::1'])
      expect(allowed(policy, address), address).toBe(true);
    for (const address of ['169.254.169.254', 'fe80::1', 'febf::1', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200']) {
      expect(policy.decide(address, 80, none), address).toEqual({
        allowed: false,
        reason: 'link-local addresses (cloud metadata included) are always refused',
      });
    }
  });

  it('the most specific entry decides; DENY wins a tie; link-local stays refused whatever ALLOW says', () => {
    const policy = OutboundPolicy.parse('loopback,private,10.9.0.0/16', '127.0.0.1/32,10.0.0.0/8,0.0.0.0/0');
    expect(allowed(policy, '127.0.0.1')).toBe(true);
    expect(policy.decide('127.0.0.2', 80, none)).toEqual({ allowed: false, reason: 'SVC_OUTBOUND_DENY refuses loopback' });
    expect(allowed(policy, '::ffff:127.0.0.1')).toBe(true);
    expect(allowed(policy, '10.1.1.1')).toBe(false); // private's 10.0.0.0/8 ties with ALLOW's
    expect(policy.decide('10.9.1.1', 80, none)).toEqual({ allowed: false, reason: 'SVC_OUTBOUND_DENY refuses 10.9.0.0/16' });
    expect(allowed(policy, '192.168.1.1')).toBe(false);
    expect(allowed(policy, '8.8.8.8')).toBe(true);
    expect(allowed(OutboundPolicy.parse('10.0.0.0/8', '10.1.0.0/16'), '10.1.0.5')).toBe(true);
    expect(allowed(OutboundPolicy.parse(undefined, '169.254.169.254/32'), '169.254.169.254')).toBe(false);
    expect(() => OutboundPolicy.parse(undefined, 'link-local')).toThrow('SVC_OUTBOUND_ALLOW: link-local addresses are always refused and cannot be allowed');
  });

  it("refuses the service's own dependencies on their port only", () => {
    const deps: OwnDependency[] = [{ name: 'Redis (REDIS_URL)', ranges: [parseCidr('10.0.0.5')], port: 6379 }];
    const policy = OutboundPolicy.parse(undefined, 'private');
    expect(policy.decide('10.0.0.5', 6379, deps)).toEqual({ allowed: false, reason: "it is this service's own Redis (REDIS_URL)" });
    expect(policy.decide('::ffff:10.0.0.5', 6379, deps).allowed).toBe(false);
    expect(allowed(policy, '10.0.0.5', 9090, deps)).toBe(true);
  });

  it('finds the dependencies in DATABASE_URL (host in the query too) and REDIS_URL, with their default ports', async () => {
    const lookup = async (host: string) => (host === 'redis.internal' ? ['10.0.0.7'] : []);
    const deps = await resolveOwnDependencies('postgres:///svc?host=10.0.0.5', 'redis://redis.internal', lookup);
    const policy = OutboundPolicy.parse(undefined, undefined);
    expect(policy.decide('10.0.0.5', 5432, deps)).toEqual({ allowed: false, reason: "it is this service's own PostgreSQL (DATABASE_URL)" });
    expect(policy.decide('10.0.0.7', 6379, deps)).toEqual({ allowed: false, reason: "it is this service's own Redis (REDIS_URL)" });
    expect(policy.decide('10.0.0.7', 5432, deps).allowed).toBe(true);
    expect(await resolveOwnDependencies('postgres:///svc?host=/run/postgresql', 'redis://redis.internal:6380', lookup)).toEqual([
      { name: 'Redis (REDIS_URL)', ranges: [expect.objectContaining({ label: '10.0.0.7', prefix: 32 })], port: 6380 },
    ]);
  });

  it('is validated at boot: a bad entry stops the process naming the setting', () => {
    expect(() => loadConfig({ SVC_OUTBOUND_DENY: 'loopback,10.0.0.0/40' })).toThrow('SVC_OUTBOUND_DENY: "10.0.0.0/40" has a prefix length outside 0-32');
    expect(() => loadConfig({ SVC_OUTBOUND_ALLOW: 'intranet' })).toThrow(/SVC_OUTBOUND_ALLOW: "intranet" is not a CIDR/);
    expect(loadConfig({ SVC_OUTBOUND_DENY: 'loopback,private', SVC_OUTBOUND_ALLOW: '10.20.0.0/16' })).toMatchObject({
      SVC_OUTBOUND_DENY: 'loopback,private',
      SVC_OUTBOUND_ALLOW: '10.20.0.0/16',
    });
  });
});

describe('recognised upstream API errors', () => {
  const of = (body: string, status = 400) => upstreamErrorMessage(Buffer.from(body), status);
  it('takes the message of Prometheus and Alertmanager API errors, capped at 512 characters, and nothing else', () => {
    expect(of('{"status":"error","errorType":"bad_data","error":"parse error"}')).toBe('(bad_data) parse error');
    expect(of('"error parsing regexp: missing closing )"')).toBe('error parsing regexp: missing closing )');
    expect(of('{"code":602,"message":"filter in query must be a list"}', 422)).toBe('filter in query must be a list');
    expect(of(`{"status":"error","error":"${'x'.repeat(5000)}"}`)).toHaveLength(512);
    expect(of('{"status":"error","error":"line one\\nFAKE line"}')).toBe('line one FAKE line');
    for (const other of ['<html>internal secret-token=abc</html>', '{"message":"secret"}', '{"error":"secret"}', '"secret"', '[1,2]', '']) {
      expect(of(other, other === '"secret"' ? 401 : 500), other).toBeUndefined();
    }
    expect(upstreamErrorMessage(Buffer.from('{"status":"error","error":"cut'), 400, false)).toBeUndefined();
  });
});
