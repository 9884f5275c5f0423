import { HttpHandler, matchRequestUrl, type RequestHandler } from 'msw';
import type { RouteMatch } from './types.js';

export interface RouteSpec {
  method: string;
  /** A path or an msw path template, e.g. `/jobs/:id/cancel`. */
  path: string;
}

export interface ResolvedRoute {
  /** `METHOD template` of the first handler that matches, else `METHOD path`. */
  route: string;
  write: boolean;
}

/**
 * Names routes and tells writes from reads. The route comes from the handlers' own templates
 * (msw's HttpHandler.info), so the journal groups `/jobs/j1` and `/jobs/j2` as `GET /jobs/:id`.
 */
export class RouteTable {
  private readonly templates: RouteSpec[] = [];

  constructor(
    handlers: readonly RequestHandler[],
    private readonly writes: readonly RouteSpec[],
    private readonly baseUrl: string,
  ) {
    for (const h of handlers) {
      if (h instanceof HttpHandler && typeof h.info.method === 'string' && typeof h.info.path === 'string') {
        this.templates.push({ method: h.info.method.toUpperCase(), path: h.info.path });
      }
    }
  }

  resolve(method: string, url: URL): ResolvedRoute {
    const m = method.toUpperCase();
    const template = this.templates.find((r) => this.specMatches(r, m, url));
    const write = this.writes.some((w) => this.specMatches(w, m, url));
    return { route: `${m} ${template ? template.path : url.pathname}`, write };
  }

  /** Whether a gate's or a fault's `match` selects this request (unset fields match all). */
  matches(match: RouteMatch, method: string, url: URL, correlationId: string | undefined): boolean {
    if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
    if (match.correlationId !== undefined && match.correlationId !== correlationId) return false;
    if (match.path !== undefined && !this.pathMatches(match.path, url)) return false;
    return true;
  }

  private specMatches(spec: RouteSpec, method: string, url: URL): boolean {
    return (spec.method === '*' || spec.method.toUpperCase() === method) && this.pathMatches(spec.path, url);
  }

  private pathMatches(path: string, url: URL): boolean {
    return path === url.pathname || matchRequestUrl(url, path, this.baseUrl).matches;
  }
}
