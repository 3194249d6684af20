/**
 * `http_request_duration_seconds`: one histogram observation per answered request, labelled by
 * the route as declared (never the raw path), the method and the status.
 */
import { Histogram, type Registry } from 'prom-client';

/** The route of a request as the router declares it: a path, or a prefix and its parameter. */
export interface DeclaredRoute {
  readonly path: string;
  readonly param?: string;
}

/** The one label of every request no route knows (a page's 404, a bad target). */
export const UNMATCHED = 'unmatched';

/** Methods node's parser accepts beyond these are counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Buckets from half a millisecond (a prepared body from memory) to 10 s (a large since result
 * streamed to a slow reader): the service's answers span that range.
 */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Observes one answered request: its route (null: none), method, status and duration. */
export type RequestObserver = (
  route: DeclaredRoute | null,
  method: string | undefined,
  status: number,
  seconds: number,
) => void;

/** `/api/reviews/since/{date}` for a prefix route, the path itself for an exact one. */
export function routeLabel(route: DeclaredRoute | null): string {
  if (!route) return UNMATCHED;
  return route.param === undefined ? route.path : `${route.path}{${route.param}}`;
}

/**
 * The request histogram and its observer. Each label set's child is made once and kept (routes,
 * methods and statuses are few), so a request costs a map lookup and an observation.
 */
export function requestMetrics(registry: Registry): RequestObserver {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request reaching the service to its handler being done, by declared route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const labels = new Map<DeclaredRoute | null, string>();
  const children = new Map<string, { observe(value: number): void }>();
  return (route, method, status, seconds) => {
    let label = labels.get(route);
    if (label === undefined) {
      label = routeLabel(route);
      labels.set(route, label);
    }
    const m = method !== undefined && METHODS.has(method) ? method : 'other';
    const key = `${label} ${m} ${status}`;
    let child = children.get(key);
    if (!child) {
      child = histogram.labels(label, m, String(status));
      children.set(key, child);
    }
    child.observe(seconds);
  };
}
