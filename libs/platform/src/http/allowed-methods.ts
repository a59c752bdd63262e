import type { Request } from 'express';

interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match?: (path: string) => unknown;
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods the application's routes accept on the request's path (`HEAD` with every `GET`),
 * in a fixed order; empty when no route has that path. Read from the Express router that Nest
 * registered the routes on, so it is the same table that dispatches requests.
 */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    const declared = layer.route?.methods;
    // Wildcard routes are middleware Nest mounts on every path and method (`/{*path}`), not routes of their own.
    if (!declared || declared._all || String(layer.route?.path).includes('*') || !layer.match?.(req.path)) continue;
    for (const [method, on] of Object.entries(declared)) if (on) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function rank(method: string): number {
  const i = ORDER.indexOf(method);
  return i < 0 ? ORDER.length : i;
}
