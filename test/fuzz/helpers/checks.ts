import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import type { WireResponse } from './raw-http.js';

/**
 * What the store publishes, as one hash: the data version and its time, the business record and
 * every public review record. Rejected input must leave it exactly as it was.
 */
export async function publishedFingerprint(store: Store): Promise<string> {
  const data = await store.readDataset();
  return createHash('sha256')
    .update(JSON.stringify([data.state, data.business, [...data.reviews].sort()]))
    .digest('hex');
}

/** The service still answers: `GET /healthz` is 200 `{ status: "ok" }` at the same data version. */
export async function expectHealthy(url: string, dataVersion?: number): Promise<void> {
  const res = await fetch(`${url}/healthz`);
  expect(res.status, 'GET /healthz').toBe(200);
  const body = (await res.json()) as { status: string; dataVersion: number };
  expect(body.status).toBe('ok');
  if (dataVersion !== undefined)
    expect(body.dataVersion, 'published data version').toBe(dataVersion);
}

/** Parses a JSON body, failing with the body's start when it is not JSON. */
export function jsonOf(res: WireResponse): unknown {
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new Error(
      `${res.status} with a body that is not JSON: ${JSON.stringify(res.text.slice(0, 300))}`,
    );
  }
}

/** An issue as the API documents it: the parameter's path, a code and a message. */
export function expectIssue(issue: unknown): void {
  const i = issue as { path: unknown; code: unknown; message: unknown };
  expect(Array.isArray(i.path), 'issue.path is an array').toBe(true);
  for (const p of i.path as unknown[]) expect(['string', 'number']).toContain(typeof p);
  expect(typeof i.code).toBe('string');
  expect(typeof i.message).toBe('string');
}

/**
 * The service's error body for a 4xx (never a 5xx): `application/json`, `{ error, message,
 * issues? }` with string `error` and `message`, the issues well formed, and CORS for any origin.
 * A HEAD has no body to check.
 */
export function expectJsonError(res: WireResponse, method = 'GET'): Record<string, unknown> {
  expect(res.status, res.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  if (method === 'HEAD') return {};
  const body = jsonOf(res) as Record<string, unknown>;
  expect(typeof body.error, 'error is a string').toBe('string');
  expect(typeof body.message, 'message is a string').toBe('string');
  if (body.issues !== undefined) {
    expect(Array.isArray(body.issues)).toBe(true);
    expect((body.issues as unknown[]).length).toBeGreaterThan(0);
    (body.issues as unknown[]).forEach(expectIssue);
  }
  return body;
}

/** Errors never echo a submitted value: none of the canaries appears in the text. */
export function expectNoEcho(text: string, canaries: readonly string[]): void {
  for (const c of canaries) expect(text.includes(c), `the answer echoes ${c}`).toBe(false);
}
