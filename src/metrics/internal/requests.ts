/**
 * `http_request_duration_seconds`: one histogram observation per answered request, labelled by
 * the route as declared (never the raw path), the method and the status.
 */

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

/** One label set's counts (per bucket; the last is above every bound) and its lines' prefixes. */
interface Series {
  /** `name_bucket{labels,le="…"} ` for each bound and `+Inf`, then `_sum{…} `, `_count{…} `. */
  readonly prefixes: readonly string[];
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

const NAME = 'http_request_duration_seconds';
const HEAD = [
  `# HELP ${NAME} Time from a request reaching the service to its handler being done, by declared route, method and status.`,
  `# TYPE ${NAME} histogram`,
].join('\n');

/** A label value in the text format: backslash, double quote and line feed escaped. */
const escape = (v: string): string =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function prefixesOf(route: string, method: string, status: number): string[] {
  const labels = `route="${escape(route)}",method="${method}",status="${status}"`;
  return [
    ...[...BUCKETS.map(String), '+Inf'].map((le) => `${NAME}_bucket{${labels},le="${le}"} `),
    `${NAME}_sum{${labels}} `,
    `${NAME}_count{${labels}} `,
  ];
}

/**
 * The histogram, kept lean at both ends: a request finds its series by one string key and counts
 * (prom-client's `Histogram.observe` hashes its label object on every call, a few microseconds),
 * and a scrape writes each line as a prefix made once per series and a number (prom-client's
 * registry formats every label of every line again: 9 ms for 56 series on a busy machine).
 */
class RequestHistogram {
  private readonly series = new Map<string, Series>();

  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      const prefixes = prefixesOf(route, method, status);
      s = { prefixes, buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]!) b++;
    s.buckets[b]!++;
    s.sum += seconds;
    s.count++;
  }

  /** The histogram in the Prometheus text format (its `# HELP` and `# TYPE` lines first). */
  text(): string {
    const lines = [HEAD];
    for (const { prefixes, buckets, sum, count } of this.series.values()) {
      let acc = 0;
      for (let i = 0; i < buckets.length; i++) {
        acc += buckets[i]!;
        lines.push(prefixes[i]! + acc);
      }
      lines.push(prefixes[buckets.length]! + sum, prefixes[buckets.length + 1]! + count);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** The observer of the answered requests, and the text of their histogram for a scrape. */
export interface RequestMetrics {
  observe: RequestObserver;
  text(): string;
}

/**
 * The request histogram and its observer: a request costs a map lookup for its route's label, a
 * string key, a map lookup for its series and a few additions.
 */
export function requestMetrics(): RequestMetrics {
  const histogram = new RequestHistogram();
  const labels = new Map<DeclaredRoute | null, string>();
  const observe: RequestObserver = (route, method, status, seconds) => {
    let label = labels.get(route);
    if (label === undefined) {
      label = routeLabel(route);
      labels.set(route, label);
    }
    const m = method !== undefined && METHODS.has(method) ? method : 'other';
    histogram.observe(label, m, status, seconds);
  };
  return { observe, text: () => histogram.text() };
}
