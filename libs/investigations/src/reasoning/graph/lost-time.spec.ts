import { Timestamp } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { onset, T } from '../../../../../test/support/scripted-prometheus';
import type { CallEdge, CallGraph } from './call-graph';
import { dependenciesOf, dependentsOf, whereTimeIsLost } from './lost-time';

const at = (minute: number): bigint => Timestamp.parse(T(minute))!.epochMicros;

/** An edge read a sample a minute from 02:15 to 02:35: `wait`/`handle` seconds before the change minute, then `waitThen`/`handleThen`. */
function edge(caller: string, callee: string, wait: number, handle: number, waitThen = wait, handleThen = handle, change = 30, from = 15): CallEdge {
  const client = new Map<bigint, number>();
  const server = new Map<bigint, number>();
  for (let m = from; m <= 35; m++) {
    client.set(at(m), m < change ? wait : waitThen);
    server.set(at(m), m < change ? handle : handleThen);
  }
  return { caller, callee, client, server };
}

const graph = (edges: CallEdge[]): CallGraph => ({ edges, source: 'traces_service_graph_request_client_seconds', runs: [] });

describe('whereTimeIsLost', () => {
  // gateway → travel → basic → route; gateway → preserve → basic; gateway → auth.
  const shop = (routeFrom: { basic: [number, number]; travel: [number, number] }): CallEdge[] => [
    edge('gateway', 'travel', 0.5, 0.49, 2.1, 2.09),
    edge('gateway', 'preserve', 0.9, 0.89, 2.5, 2.49),
    edge('gateway', 'auth', 0.2, 0.19),
    edge('travel', 'basic', 0.3, 0.29, 1.9, 1.89),
    edge('preserve', 'basic', 0.3, 0.29, 1.9, 1.89),
    edge('basic', 'route', 0.02, 0.015, ...routeFrom.basic),
    edge('travel', 'route', 0.02, 0.015, ...routeFrom.travel),
    edge('basic', 'station', 0.005, 0.003),
  ];

  it('names the callee whose callers wait far longer than it works, and the services on the way as waiting on it', () => {
    const lost = whereTimeIsLost(graph(shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] })), ['gateway'], onset);
    expect(lost?.callee).toBe('route');
    expect(lost?.losing.map((l) => l.caller)).toEqual(['travel', 'basic']);
    expect(lost?.callers).toBe(2);
    expect(lost?.lost).toBeCloseTo(1.989, 3);
    // First seen at 02:30, the rate behind that sample spanning the minute before.
    expect(lost?.since.toISOString()).toBe('2026-11-22T02:29:00.000000Z');
    expect(lost?.dependents).toEqual(['basic', 'gateway', 'preserve', 'travel']);
  });

  it('starts from the alerting service: a delay it does not depend on is not its cause', () => {
    const edges = [...shop({ basic: [0.02, 0.015], travel: [0.02, 0.015] }), edge('admin', 'users', 0.01, 0.008, 1.5, 0.01)];
    expect(whereTimeIsLost(graph(edges), ['gateway'], onset)).toBeNull();
    expect(whereTimeIsLost(graph(edges), ['admin'], onset)?.callee).toBe('users');
  });

  it('does not blame a callee that is slow itself: its callers wait about as long as it works', () => {
    const edges = shop({ basic: [1.87, 1.85], travel: [2.0, 1.98] });
    expect(whereTimeIsLost(graph(edges), ['gateway'], onset)).toBeNull();
  });

  it('needs most of the callee’s callers to lose time', () => {
    expect(whereTimeIsLost(graph(shop({ basic: [1.87, 0.015], travel: [0.02, 0.015] })), ['gateway'], onset)).toBeNull();
    const three = [...shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }), edge('station', 'route', 0.02, 0.015)];
    expect(whereTimeIsLost(graph(three), ['gateway'], onset)?.callee).toBe('route');
  });

  it('takes a loss that already held, without a break, from ten minutes before the onset for the usual state of that path', () => {
    const chronic = shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }).map((e) =>
      e.callee === 'route' ? edge(e.caller, 'route', 0.02, 0.015, 1.9, 0.015, 19) : e,
    );
    expect(whereTimeIsLost(graph(chronic), ['gateway'], onset)).toBeNull();
    // Begun five minutes before the onset: a change, dated where its stretch began.
    const recent = shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }).map((e) =>
      e.callee === 'route' ? edge(e.caller, 'route', 0.02, 0.015, 1.9, 0.015, 25) : e,
    );
    expect(whereTimeIsLost(graph(recent), ['gateway'], onset)?.since.toISOString()).toBe('2026-11-22T02:24:00.000000Z');
    // Lost in an earlier stretch read apart from this one (nothing read in between): not known to have held throughout.
    const apart = (e: CallEdge): CallEdge => {
      for (const m of [22, 23, 24, 25, 26, 27, 28, 29]) {
        e.client.delete(at(m));
        e.server.delete(at(m));
      }
      for (const m of [15, 16, 17, 18, 19, 20, 21]) e.client.set(at(m), 1.9);
      return e;
    };
    const earlier = shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }).map((e) => (e.callee === 'route' ? apart(e) : e));
    expect(whereTimeIsLost(graph(earlier), ['gateway'], onset)?.since.toISOString()).toBe('2026-11-22T02:29:00.000000Z');
  });

  it('leaves a loss to the caller when the one caller of a callee loses time on its calls to others too (its own CPU or client)', () => {
    const starved = [
      edge('food', 'train-food', 0.01, 0.008, 0.3, 0.01),
      edge('food', 'station-food', 0.01, 0.008, 0.35, 0.01),
      edge('food', 'travel', 0.2, 0.19),
    ];
    expect(whereTimeIsLost(graph(starved), ['food'], onset)).toBeNull();
    // One callee only: the loss may be either end's; the callee is named.
    expect(whereTimeIsLost(graph(starved.slice(0, 1)), ['food'], onset)?.callee).toBe('train-food');
  });

  it('counts the caller as losing time on its other calls when a loss under half the threshold grew several times over its usual level', () => {
    const starved = (stationWait: number): CallEdge[] => [
      edge('food', 'train-food', 0.01, 0.008, 0.3, 0.01),
      edge('food', 'station-food', 0.005, 0.003, stationWait, 0.003),
    ];
    // 0.042 s lost where 0.002 s was: the caller's own trouble.
    expect(whereTimeIsLost(graph(starved(0.045)), ['food'], onset)).toBeNull();
    // 0.012 s lost: too little to say so; the callee is named.
    expect(whereTimeIsLost(graph(starved(0.015)), ['food'], onset)?.callee).toBe('train-food');
  });

  it('does not count a caller that made no calls after the onset, nor take a sample whose rate window closed at the onset for after it', () => {
    const quiet = (e: CallEdge): CallEdge => {
      for (const m of [31, 32, 33, 34, 35]) {
        e.client.delete(at(m));
        e.server.delete(at(m));
      }
      return e;
    };
    // basic's calls to route lose time from 02:31; travel's last call to route was read at 02:30, before the delay.
    const edges = shop({ basic: [1.87, 0.015], travel: [0.02, 0.015] }).map((e) =>
      e.callee === 'route' && e.caller === 'basic' ? edge('basic', 'route', 0.02, 0.015, 1.87, 0.015, 31) : e.callee === 'route' ? quiet(e) : e,
    );
    const lost = whereTimeIsLost(graph(edges), ['gateway'], onset);
    expect(lost?.callee).toBe('route');
    expect(lost?.callers).toBe(1);
  });

  it('names the largest loss first when several callees lose time', () => {
    const two = [
      ...shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }),
      edge('gateway', 'contacts', 0.01, 0.008, 0.2, 0.01),
      edge('preserve', 'contacts', 0.01, 0.008, 0.2, 0.01),
    ];
    expect(whereTimeIsLost(graph(two), ['gateway'], onset)?.callee).toBe('route');
  });

  it('ignores losses below a tenth of a second or under half of the wait', () => {
    expect(whereTimeIsLost(graph([edge('a', 'b', 0.02, 0.015, 0.09, 0.015)]), ['a'], onset)).toBeNull();
    expect(whereTimeIsLost(graph([edge('a', 'b', 0.5, 0.45, 1.2, 0.7)]), ['a'], onset)).toBeNull();
    expect(whereTimeIsLost(graph([edge('a', 'b', 0.5, 0.45, 1.2, 0.55)]), ['a'], onset)?.callee).toBe('b');
  });

  it('walks from the entries of the graph for an alerting service it does not show, asked to, and then needs two callers losing time', () => {
    const edges = shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] });
    // The web front calls gateway, but nothing traces it.
    expect(whereTimeIsLost(graph(edges), ['web'], onset)).toBeNull();
    expect(whereTimeIsLost(graph(edges), ['web'], onset, { fromEntries: true })?.callee).toBe('route');
    // One caller's slow calls: as likely its own as the callee's.
    const one = [...shop({ basic: [0.02, 0.015], travel: [0.02, 0.015] }), edge('gateway', 'cart', 0.12, 0.11, 0.36, 0.13)];
    expect(whereTimeIsLost(graph(one), ['web'], onset, { fromEntries: true })).toBeNull();
    expect(whereTimeIsLost(graph(one), ['gateway'], onset, { fromEntries: true })?.callee).toBe('cart');
  });

  it('reads the graph at its last sample when none reaches the onset and the last is at most three minutes before it', () => {
    const upTo = (last: number): CallEdge[] =>
      shop({ basic: [1.87, 0.015], travel: [2.0, 0.011] }).map((e) => {
        for (let m = last + 1; m <= 35; m++) {
          e.client.delete(at(m));
          e.server.delete(at(m));
        }
        return e;
      });
    // Traced up to 02:32, the alert raised at 02:35 (its onset): the delay since 02:30 is read.
    const late = Timestamp.parse(T(35))!;
    expect(whereTimeIsLost(graph(upTo(32)), ['gateway'], late)?.callee).toBe('route');
    // Traced up to 02:31 only: four minutes before the onset say nothing of it.
    expect(whereTimeIsLost(graph(upTo(31)), ['gateway'], late)).toBeNull();
  });

  it('reads a path that appeared only at the onset (a graph derived from sampled traces) from its first sample', () => {
    const lost = whereTimeIsLost(graph([edge('a', 'b', 0.5, 0.45, 1.2, 0.05, 30, 31)]), ['a'], onset);
    expect(lost?.callee).toBe('b');
    expect(lost?.since.toISOString()).toBe('2026-11-22T02:30:00.000000Z');
  });
});

describe('dependenciesOf', () => {
  it('lists everything the alerting services call, directly or not, and nothing that calls them or stands apart', () => {
    const edges = [
      edge('ui', 'gateway', 1, 1),
      edge('gateway', 'travel', 1, 1),
      edge('travel', 'basic', 1, 1),
      edge('basic', 'route', 1, 1),
      edge('admin', 'users', 1, 1),
    ];
    expect(dependenciesOf(edges, ['gateway'])).toEqual(['basic', 'route', 'travel']);
    expect(dependenciesOf(edges, ['route'])).toEqual([]);
    expect(dependenciesOf(edges, ['shop/travel'])).toEqual([]);
    expect(dependenciesOf(edges, ['travel', 'admin'])).toEqual(['basic', 'route', 'users']);
  });
});

describe('dependentsOf', () => {
  it('lists everything that calls the alerting services, directly or not, and nothing they call or that stands apart', () => {
    const edges = [edge('ui', 'gateway', 1, 1), edge('gateway', 'travel', 1, 1), edge('travel', 'basic', 1, 1), edge('admin', 'users', 1, 1)];
    expect(dependentsOf(edges, ['basic'])).toEqual(['gateway', 'travel', 'ui']);
    expect(dependentsOf(edges, ['ui'])).toEqual([]);
    expect(dependentsOf(edges, ['travel', 'users'])).toEqual(['admin', 'gateway', 'ui']);
  });
});
