import { AddressRange, ADDRESS_WORDS, longestMatch, parseAddress, parseAddressRules, parseCidr } from './address-rules';

/** A service this process depends on (PostgreSQL, Redis): its address and port are never a destination. */
export interface OwnDependency {
  name: string;
  /** The addresses it was resolved to (on this host: every address of this host). */
  ranges: readonly AddressRange[];
  port: number;
}

export type OutboundDecision = { allowed: true } | { allowed: false; reason: string };

const ALWAYS_REFUSED: AddressRange[] = ADDRESS_WORDS['link-local'].map((cidr) => parseCidr(cidr, 'link-local'));

/**
 * Which addresses outbound requests to integrations may connect to (decisions §13).
 * Link-local addresses and the service's own dependencies are refused whatever the settings say;
 * otherwise the most specific entry of SVC_OUTBOUND_DENY / SVC_OUTBOUND_ALLOW that contains the
 * address decides (DENY on a tie), and an address neither names is allowed.
 */
export class OutboundPolicy {
  constructor(
    readonly deny: readonly AddressRange[],
    readonly allow: readonly AddressRange[],
  ) {}

  /** From the two settings' text; throws an Error naming the setting and the bad entry. */
  static parse(deny: string | undefined, allow: string | undefined): OutboundPolicy {
    const read = (name: string, text: string | undefined) => {
      try {
        return parseAddressRules(text);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
      }
    };
    const allowed = read('SVC_OUTBOUND_ALLOW', allow);
    if (allowed.some((range) => range.label === 'link-local'))
      throw new Error('SVC_OUTBOUND_ALLOW: link-local addresses are always refused and cannot be allowed');
    return new OutboundPolicy(read('SVC_OUTBOUND_DENY', deny), allowed);
  }

  decide(address: string, port: number, dependencies: readonly OwnDependency[]): OutboundDecision {
    const parsed = parseAddress(address);
    if (!parsed) return { allowed: false, reason: `${address} is not an IP address` };
    if (longestMatch(ALWAYS_REFUSED, parsed)) return { allowed: false, reason: 'link-local addresses (cloud metadata included) are always refused' };
    const own = dependencies.find((d) => d.port === port && longestMatch(d.ranges, parsed));
    if (own) return { allowed: false, reason: `it is this service's own ${own.name}` };
    const denied = longestMatch(this.deny, parsed);
    if (!denied) return { allowed: true };
    const allowed = longestMatch(this.allow, parsed);
    if (allowed && allowed.prefix > denied.prefix) return { allowed: true };
    return { allowed: false, reason: `SVC_OUTBOUND_DENY refuses ${denied.label}` };
  }
}
