import { beforeAll, describe, expect, it } from 'vitest';
import { reviewRecord } from '../../test/helpers/records.js';
import { testSnapshot } from '../../test/helpers/snapshots.js';
import { SearchResponse } from '../domain/public-schemas.js';
import { serializeReview } from '../domain/serialize.js';
import { isServiceError, type ServiceError } from '../platform/errors.js';
import { sincePage } from '../reviews/since.js';
import type { Snapshot } from '../snapshot/types.js';
import { healthOf } from './health.js';
import { searchDocument } from './search.js';
import { SearchFilters } from '../reviews/search-schema.js';

let snapshot: Snapshot;

// Stored in no particular order; published newest first.
const RECORDS = [
  reviewRecord({ key: 'old', date: '2025-01-01', rating: 2, body: 'Slow oil change.' }),
  reviewRecord({ key: 'mid', date: '2025-02-01', rating: 4, body: 'Quick brake job.' }),
  reviewRecord({
    key: 'new',
    date: '2025-03-01',
    rating: 5,
    body: 'Mike Torres was great.',
    technicians: ['Mike Torres'],
  }),
  reviewRecord({
    key: 'mid2',
    date: '2025-02-01',
    datePublished: '2025-02-01T18:00:00.000Z',
    rating: 5,
    body: 'Fine.',
  }),
];

beforeAll(async () => {
  snapshot = await testSnapshot({ version: 3, changedAt: '2025-03-02T00:00:00.000Z' }, RECORDS);
});

const json = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

describe('searchDocument', () => {
  it('renders { count, total, limit, reviews } with the stored review records, newest first', () => {
    const rep = searchDocument(snapshot, SearchFilters.parse({ min_rating: 4, limit: 2 }));
    expect(rep.contentType).toBe('application/json');
    const doc = SearchResponse.parse(json(rep.body));
    expect(doc.count).toBe(2);
    expect(doc.total).toBe(3);
    expect(doc.limit).toBe(2);
    expect(doc.reviews.map((r) => r.sourceReviewId)).toEqual(['new', 'mid2']);
    // Each review is the stored JSON text, byte for byte.
    const body = rep.body.toString('utf8');
    for (const key of ['new', 'mid2'])
      expect(body).toContain(serializeReview(RECORDS.find((r) => r.sourceReviewId === key)!));
    expect(rep.lastModified).toBe('Sun, 02 Mar 2025 00:00:00 GMT');
  });

  it('renders an empty page as valid JSON', () => {
    const rep = searchDocument(snapshot, SearchFilters.parse({ query: 'nothing' }));
    expect(json(rep.body)).toEqual({ count: 0, total: 0, limit: 20, reviews: [] });
  });

  it('keeps each response once per snapshot, whatever the case of names and ids', () => {
    const a = searchDocument(snapshot, SearchFilters.parse({ mentions_technician: 'Mike Torres' }));
    const b = searchDocument(snapshot, SearchFilters.parse({ mentions_technician: 'MIKE TORRES' }));
    expect(b).toBe(a);
    expect(SearchResponse.parse(json(a.body)).total).toBe(1);
    const other = searchDocument(snapshot, SearchFilters.parse({ rating: 5 }));
    expect(other).not.toBe(a);
  });

  it('throws the 400 of an ambiguous first name, naming the candidates', () => {
    let thrown: unknown;
    try {
      searchDocument(snapshot, SearchFilters.parse({ mentions_technician: 'mike' }));
    } catch (err) {
      thrown = err;
    }
    expect(isServiceError(thrown, 'invalid_request')).toBe(true);
    const err = thrown as ServiceError;
    expect(err.status).toBe(400);
    expect(err.issues).toEqual([
      expect.objectContaining({ path: ['mentions_technician'], code: 'ambiguous' }),
    ]);
    expect(err.issues![0]!.message).toContain('Mike Chen, Mike Torres');
  });
});

describe('sincePage', () => {
  const ids = (positions: number[]) => positions.map((p) => snapshot.review(p).sourceReviewId);

  it('gives the reviews dated on or after the day, oldest first', () => {
    const page = sincePage(snapshot.index, '2025-02-01', 100);
    expect(page.total).toBe(3);
    // Oldest first: exactly the reverse of the published order of those reviews.
    const published = ids([...Array(snapshot.index.size).keys()]);
    expect(ids(page.positions)).toEqual(published.slice(0, 3).reverse());
    expect(ids(page.positions).at(-1)).toBe('new');
    expect(page.next).toBeNull();
  });

  it('includes the whole first day, and gives nothing after the newest review', () => {
    expect(sincePage(snapshot.index, '2025-01-01', 100).total).toBe(4);
    expect(sincePage(snapshot.index, '2024-12-31', 100).total).toBe(4);
    expect(sincePage(snapshot.index, '2025-03-02', 100)).toEqual({
      total: 0,
      positions: [],
      next: null,
    });
  });

  it('pages with the key of the last review given, until the newest', () => {
    const whole = sincePage(snapshot.index, '2024-01-01', 100).positions;
    const seen: number[] = [];
    let page = sincePage(snapshot.index, '2024-01-01', 3);
    for (;;) {
      seen.push(...page.positions);
      if (!page.next) break;
      page = sincePage(snapshot.index, '2024-01-01', 3, page.next);
    }
    expect(seen).toEqual(whole);
  });
});

describe('healthOf (/healthz)', () => {
  const at = Date.parse('2030-01-01T00:00:00.000Z');

  it('is 200 { status: "ok", dataVersion, reviews } while the served version is fresh', () => {
    expect(healthOf(snapshot, null, 120_000, at)).toEqual({
      status: 200,
      body: { status: 'ok', dataVersion: 3, reviews: 4 },
    });
  });

  it('stays 200 while only the store cannot be read, saying since when', () => {
    const stale = { since: at, reason: 'the store could not be read', newerVersion: null };
    expect(healthOf(snapshot, { ...stale, behindSince: null }, 120_000, at + 3_600_000)).toEqual({
      status: 200,
      body: {
        status: 'ok',
        dataVersion: 3,
        reviews: 4,
        stale: { since: '2030-01-01T00:00:00.000Z', reason: 'the store could not be read' },
      },
    });
  });

  it('is 503 once a newer version could not be published for the grace (unless it is 0)', () => {
    const stale = {
      since: at - 60_000,
      reason: 'data version 5 could not be published',
      newerVersion: 5,
      behindSince: at,
    };
    const body = {
      dataVersion: 3,
      reviews: 4,
      stale: {
        since: '2029-12-31T23:59:00.000Z',
        reason: 'data version 5 could not be published',
        newerVersion: 5,
      },
    };
    expect(healthOf(snapshot, stale, 120_000, at + 119_999)).toEqual({
      status: 200,
      body: { status: 'ok', ...body },
    });
    expect(healthOf(snapshot, stale, 120_000, at + 120_000)).toEqual({
      status: 503,
      body: { status: 'stale', ...body },
    });
    expect(healthOf(snapshot, stale, 0, at + 86_400_000).status).toBe(200);
  });

  it('lists the configured review sources, and stays 200 while one fails', () => {
    const sources = [
      {
        name: 'gbp',
        lastSuccessAt: '2029-12-31T23:00:00.000Z',
        lastError: 'the token endpoint answered 400',
        nextRunAt: '2030-01-01T00:15:00.000Z',
      },
    ];
    expect(healthOf(snapshot, null, 120_000, at, sources)).toEqual({
      status: 200,
      body: { status: 'ok', dataVersion: 3, reviews: 4, sources },
    });
  });
});
