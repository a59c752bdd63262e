import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

/** Paths that keep their own meaning (and their JSON 404): the API, webhooks, health and metrics. */
const SERVICE_PATHS = /^\/(?:api|webhooks)(?:\/|$)|^\/(?:healthz|readyz|metrics)\/?$/;

/**
 * The console's Content-Security-Policy: its own scripts, styles and API only, never framed. Its
 * event stream and downloads are same-origin, like everything it loads.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the web console built into `dir` (dist/console, `npm run build:console`) at `/`: a GET or
 * HEAD of one of its files answers with it (the `.gz` beside it when the browser takes gzip;
 * hashed `/assets/` for a year, the rest revalidated each time), and any other GET or HEAD outside
 * the service paths whose last segment has no file extension answers with index.html, so the
 * console's own routes (`/incidents/…`) load it. Everything else falls through to the API, whose
 * 404 stays the contract's JSON error. Without a built console nothing is mounted.
 */
export function serveConsole(app: NestExpressApplication, dir: string): boolean {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return false;
  const root = normalize(dir + sep);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || SERVICE_PATHS.test(req.path)) return next();
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = normalize(join(root, path));
    const isFile = file.startsWith(root) && !path.includes('\0') && existsSync(file) && statSync(file).isFile();
    if (!isFile && extname(path) !== '') return next();
    const target = isFile ? file : index;
    const type = TYPES[extname(target)] ?? 'application/octet-stream';
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', target.startsWith(join(root, 'assets') + sep) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (target === index) {
      res.setHeader('Content-Security-Policy', CONSOLE_CSP);
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Referrer-Policy', 'same-origin');
    }
    res.setHeader('Vary', 'Accept-Encoding');
    const gzipped = `${target}.gz`;
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(gzipped)) {
      res.setHeader('Content-Encoding', 'gzip');
      return res.sendFile(gzipped, { headers: { 'Content-Type': type }, lastModified: false, etag: false, cacheControl: false });
    }
    return res.sendFile(target, { lastModified: false, etag: false, cacheControl: false });
  });
  return true;
}
