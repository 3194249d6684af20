import type { FullReview, HttpApi, InsightsDoc } from './types.js';

/**
 * The expected answers' helpers: the agent tasks compute them from the HTTP read API, never from
 * MCP.
 */

/** Two decimals, as the service rounds averages. */
const round2 = (x: number): number => Math.round(x * 100) / 100;

export function average(values: number[]): number | null {
  return values.length === 0 ? null : round2(values.reduce((a, b) => a + b, 0) / values.length);
}

/** The whole dataset over HTTP (reviews newest first), fetched once per run. */
const datasets = new WeakMap<HttpApi, Promise<{ reviews: FullReview[] }>>();
export function dataset(api: HttpApi): Promise<{ reviews: FullReview[] }> {
  let d = datasets.get(api);
  if (!d) {
    d = api<{ reviews: FullReview[] }>('/reviews.json');
    datasets.set(api, d);
  }
  return d;
}

const insightsDocs = new WeakMap<HttpApi, Promise<InsightsDoc>>();
export function insights(api: HttpApi): Promise<InsightsDoc> {
  let d = insightsDocs.get(api);
  if (!d) {
    d = api<InsightsDoc>('/insights.json');
    insightsDocs.set(api, d);
  }
  return d;
}

export async function httpSearch(api: HttpApi, params: Record<string, string | number>) {
  const q = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return api<{ total: number; reviews: FullReview[] }>(`/api/reviews/search?${q.toString()}`);
}

/** Staff or service figures computed from the dataset: mentions and average rating. */
export function tally(reviews: FullReview[], keysOf: (r: FullReview) => string[]) {
  const ratings = new Map<string, number[]>();
  for (const r of reviews) {
    for (const key of new Set(keysOf(r))) {
      const list = ratings.get(key) ?? [];
      list.push(r.reviewRating.ratingValue);
      ratings.set(key, list);
    }
  }
  return [...ratings].map(([key, list]) => ({
    key,
    mentions: list.length,
    averageRating: average(list),
  }));
}

/** The month `back` months before `month` (both YYYY-MM). */
export function monthBefore(month: string, back: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 - back, 1));
  return d.toISOString().slice(0, 7);
}
