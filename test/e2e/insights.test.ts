import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { createInsightsEngine } from '../../src/insights/index.js';
import { Insights, type Evidence } from '../../src/insights/schema.js';
import type { Snapshot } from '../../src/snapshot/index.js';
import { openStore } from '../../src/store/index.js';
import { http } from '../helpers/http.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

const ROOT = join(import.meta.dirname, '../..');
const sample = JSON.parse(readFileSync(join(ROOT, 'sample/dealership.json'), 'utf8')) as {
  business: never;
  reviews: never[];
};

/** Every review of a snapshot, newest first. */
function allReviews(snap: Snapshot): Review[] {
  return Array.from({ length: snap.index.size }, (_, pos) => snap.review(pos));
}

let svc: TestService;
let insights: Insights;
let reviews: Review[];
let byId: Map<string, Review>;

beforeAll(async () => {
  svc = await startTestService({ business: sample.business, reviews: sample.reviews });
  reviews = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
  byId = new Map(reviews.map((r) => [r.id, r]));
  insights = Insights.parse((await http(`${svc.url}/insights.json`)).json());
}, 120_000);
afterAll(() => svc.stop());

function allEvidence(ins: Insights): Evidence[] {
  const out: Evidence[] = [];
  const add = (e: { positive: Evidence[]; negative: Evidence[]; neutral: Evidence[] }) =>
    out.push(...e.positive, ...e.negative, ...e.neutral);
  ins.aspects.forEach((a) => add(a.evidence));
  ins.entities.technicians.forEach((t) => add(t.evidence));
  ins.entities.services.forEach((s) => add(s.evidence));
  ins.entities.serviceAreas.forEach((s) => add(s.evidence));
  ins.topics.forEach((t) => add(t.evidence));
  ins.faq.forEach((f) => out.push(...f.evidence));
  ins.summary.strengths.forEach((s) => out.push(...s.evidence));
  ins.summary.weaknesses.forEach((s) => out.push(...s.evidence));
  return out;
}

describe('GET /insights.json', () => {
  it('is served like the datasets: ETag, 304, compression', async () => {
    const res = await http(`${svc.url}/insights.json`, { headers: { 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const again = await http(`${svc.url}/insights.json`, {
      headers: { 'If-None-Match': res.headers.etag as string },
    });
    expect(again.status).toBe(304);
  });

  it('has every section, with the dealership taxonomy and a method block with benchmark scores', () => {
    expect(insights.aspects.map((a) => a.id)).toEqual(
      expect.arrayContaining([
        'staff-communication',
        'wait-time',
        'price-value',
        'quality-of-work',
        'vehicle-cleanliness',
        'facility-amenities',
        'scheduling',
        'follow-up',
        'sales-experience',
        'financing',
        'honesty-trust',
      ]),
    );
    expect(insights.faq.length).toBeGreaterThanOrEqual(5);
    expect(insights.topics.map((t) => t.id)).toEqual(
      expect.arrayContaining(['loaner-car', 'shuttle', 'recall']),
    );
    expect(insights.method.model).toBe('dealership');
    expect(Object.keys(insights.method.benchmarks).sort()).toEqual([
      'dealership',
      'mams-acsa',
      'semeval14-restaurants',
    ]);
    expect(insights.summary.text.length).toBeGreaterThan(50);
  });

  it('quotes only sentences copied verbatim from existing reviews', () => {
    const evidence = allEvidence(insights);
    expect(evidence.length).toBeGreaterThan(100);
    for (const e of evidence) {
      const review = byId.get(e.reviewId);
      expect(review, e.reviewId).toBeDefined();
      expect(review!.reviewBody, e.quote).toContain(e.quote);
      expect(e.quote.trim()).toBe(e.quote);
    }
  });

  it('counts agree with /reviews.json', () => {
    expect(insights.reviewCount).toBe(reviews.length);
    expect(insights.period).toEqual({ from: reviews.at(-1)!.date, to: reviews[0]!.date });
    for (const t of insights.entities.technicians) {
      const n = reviews.filter((r) => r.mentions.technicians.some((m) => m.name === t.name)).length;
      expect(t.mentions, t.name).toBe(n);
      expect(t.mentions).toBeGreaterThanOrEqual(3);
    }
    for (const s of insights.entities.services) {
      expect(s.mentions, s.id).toBe(
        reviews.filter((r) => r.mentions.services.includes(s.id)).length,
      );
    }
    expect(insights.ownerResponses.responded).toBe(reviews.filter((r) => r.ownerResponse).length);
    expect(insights.ownerResponses.total).toBe(reviews.length);
  });

  it('keeps each breakdown consistent with its totals', () => {
    for (const a of insights.aspects) {
      expect(a.positive + a.negative + a.neutral + a.mixed, a.id).toBe(a.mentions);
      expect(a.trend).toHaveLength(24);
      expect(a.trend.reduce((s, t) => s + t.mentions, 0)).toBeLessThanOrEqual(a.mentions);
      // The score is (positive - negative) / mentions rounded to three decimals (halves round up).
      const exact = (a.positive - a.negative) / a.mentions;
      if (a.mentions > 0)
        expect(Math.abs(a.score! - exact), a.id).toBeLessThanOrEqual(0.0005 + 1e-12);
    }
    for (const f of insights.faq) {
      expect(f.basis.positive + f.basis.negative + f.basis.neutral + f.basis.mixed, f.id).toBe(
        f.basis.reviews,
      );
      if (f.basis.reviews >= 3) expect(f.answer).toContain(String(f.basis.reviews));
    }
    for (const c of insights.changes) {
      // Claimed when Holm's adjusted p-value is under alpha; the raw one is never above it.
      expect(c.test.adjustedPValue).toBeLessThan(c.test.alpha);
      expect(c.test.pValue).toBeLessThanOrEqual(c.test.adjustedPValue);
      expect(c.recent.to).toBe(reviews[0]!.date);
    }
    for (const s of [...insights.summary.strengths, ...insights.summary.weaknesses]) {
      const a = insights.aspects.find((x) => x.id === s.aspect)!;
      expect(s.statement).toContain(`${a.mentions} reviews`);
    }
  });

  it('is exactly what the one-pass computation gives (the service computes it in slices)', () => {
    const snap = svc.publisher.current();
    const direct = createInsightsEngine().compute({
      reviews: allReviews(snap),
      business: snap.business,
      changedAt: snap.state.changedAt,
    });
    expect(JSON.parse(JSON.stringify(direct))).toEqual(insights);
  });

  it('keeps the analyses in the store, so a restart analyses no text again', async () => {
    const snap = svc.publisher.current();
    const texts = [
      ...new Set(allReviews(snap).flatMap((r) => (r.reviewBody ? [r.reviewBody] : []))),
    ];
    const store = openStore(svc.databaseUrl);
    try {
      expect(await store.analyses.count()).toBe(texts.length);
      // What a restarted service does: a fresh engine over the same database.
      const engine = createInsightsEngine({ analyses: store.analyses });
      expect(await engine.analyzer.warm(texts)).toBe(0);
      const { insights: again } = await engine.computeInSlices({
        reviews: allReviews(snap),
        business: snap.business,
        changedAt: snap.state.changedAt,
      });
      expect(JSON.parse(JSON.stringify(again))).toEqual(insights);
    } finally {
      await store.close();
    }
  });

  it('finds the trend built into the sample: wait-time complaints rose in the last 90 days', () => {
    const wait = insights.changes.find((c) => c.aspect === 'wait-time');
    expect(wait?.direction).toBe('worse');
  });
});

describe('insights for agents and operators', () => {
  it('offers get_insights (whole or one section) and the insights resource over MCP', async () => {
    const { client } = await connectClient(svc.url);
    const one = await client.callTool({ name: 'get_insights', arguments: { section: 'faq' } });
    const structured = one.structuredContent as {
      faq: unknown[];
      reviewCount: number;
      aspects?: unknown;
    };
    expect(structured.faq.length).toBeGreaterThanOrEqual(5);
    expect(structured.aspects).toBeUndefined();
    const whole = await client.callTool({ name: 'get_insights', arguments: {} });
    expect((whole.structuredContent as { aspects: unknown[] }).aspects.length).toBe(
      insights.aspects.length,
    );
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`${TEST_BASE_URL}/insights.json`);
    await client.close();
  });

  it('prints a readable report with `npm run insights`', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'insights'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: svc.databaseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    for (const heading of ['Aspects', 'Staff', 'Services', 'Topics', 'FAQ', 'Summary']) {
      expect(run.stdout).toContain(heading);
    }
    expect(run.stdout).toContain(insights.entities.technicians[0]!.name);
    // With --json it prints the served document, computed from the analyses the service stored.
    const json = spawnSync(
      process.execPath,
      [join(ROOT, 'dist/src/bin.js'), 'insights', '--json'],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: svc.databaseUrl },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(json.status, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual(insights);
  });
});
