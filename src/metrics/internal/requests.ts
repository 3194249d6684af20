/**
 * `http_request_duration_seconds`: one histogram observation per answered request, labelled by
 * the route as declared (never the raw path), the method and the status.
 */
import type { Metric, Registry } from 'prom-client';

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

/** One label set's counts: per bucket (the last is above every bound), their sum and count. */
interface Series {
  readonly labels: { route: string; method: string; status: string };
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

const NAME = 'http_request_duration_seconds';
const HELP =
  'Time from a request reaching the service to its handler being done, by declared route, method and status.';

/**
 * The histogram in prom-client's metric shape (`get`, what the registry formats), kept lean:
 * prom-client's own `Histogram.observe` hashes its label object on every call (a few
 * microseconds), where this one finds its series by one string key, and counts.
 */
class RequestHistogram {
  readonly name = NAME;
  readonly help = HELP;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      const labels = { route, method, status: String(status) };
      s = { labels, buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]!) b++;
    s.buckets[b]!++;
    s.sum += seconds;
    s.count++;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let acc = 0;
      BUCKETS.forEach((le, i) => {
        acc += buckets[i]!;
        values.push({ labels: { ...labels, le }, value: acc, metricName: `${NAME}_bucket` });
      });
      values.push({
        labels: { ...labels, le: '+Inf' },
        value: count,
        metricName: `${NAME}_bucket`,
      });
      values.push({ labels, value: sum, metricName: `${NAME}_sum` });
      values.push({ labels, value: count, metricName: `${NAME}_count` });
    }
    return Promise.resolve({ name: NAME, help: HELP, type: this.type, values, aggregator: 'sum' });
  }

  reset(): void {
    this.series.clear();
  }
}

/**
 * The request histogram and its observer: a request costs a map lookup for its route's label, a
 * string key, a map lookup for its series and a few additions.
 */
export function requestMetrics(registry: Registry): RequestObserver {
  const histogram = new RequestHistogram();
  registry.registerMetric(histogram as unknown as Metric);
  const labels = new Map<DeclaredRoute | null, string>();
  return (route, method, status, seconds) => {
    let label = labels.get(route);
    if (label === undefined) {
      label = routeLabel(route);
      labels.set(route, label);
    }
    const m = method !== undefined && METHODS.has(method) ? method : 'other';
    histogram.observe(label, m, status, seconds);
  };
}
