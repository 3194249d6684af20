/**
 * The change feed (`GET /api/reviews/changes`, issue 28) on a real port over a SQLite store, the
 * writes made by the real commands and ingest: paging with a change committed between pages,
 * removals and their undo, a prune, a no-op import, the errors (400, 410) and 304; and the
 * example client of docs/api.md, run as it is, converging on `/reviews.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import { ChangesResponse } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { encodeChangeCursor } from '../../src/reviews/change-cursor.js';
import {
  importRows,
  liveChanges,
  publishedReviews,
  remove,
  runMirror,
  settled,
} from '../helpers/changes.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

interface Change {
  seq: number;
  type: 'upsert' | 'removal';
  review?: Review;
  id?: string;
  removedAt?: string;
  reason?: string;
}
interface Page {
  changes: Change[];
  nextCursor: string;
  more: boolean;
}

const ROWS = testReviews(12);
let svc: TestService;

const feed = async (query = ''): Promise<Page> => {
  const res = await http(`${svc.url}/api/reviews/changes${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json<Page>();
};

/** Every change after `cursor` (from the beginning: ''), page by page; and the cursor to go on from. */
async function follow(
  cursor: string,
  limit = 1000,
): Promise<{ changes: Change[]; cursor: string }> {
  const changes: Change[] = [];
  for (let more = true; more;) {
    const page = await feed(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
    changes.push(...page.changes);
    ({ nextCursor: cursor, more } = page);
  }
  return { changes, cursor };
}

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: ROWS });
});
afterAll(() => svc.stop());

describe('GET /api/reviews/changes', () => {
  it('starts at the beginning: every published review once, as /reviews.json has it, in pages', async () => {
    const first = await feed('?limit=5');
    expect(first.changes).toHaveLength(5);
    expect(first.more).toBe(true);
    const rest = await follow(first.nextCursor, 4);
    const all = [...first.changes, ...rest.changes];
    const seqs = all.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(ROWS.length);
    const published = await publishedReviews(svc.url);
    expect(Object.fromEntries(all.map((c) => [c.review!.id, c.review]))).toEqual(published);
    expect(all.every((c) => c.type === 'upsert')).toBe(true);
    const res = await http(`${svc.url}/reviews.json`);
    expect(res.headers['changes-cursor']).toBe(rest.cursor);
  });

  it('answers 304 to a matching If-None-Match, and an empty page with the same cursor at the end', async () => {
    const { cursor } = await follow('');
    const url = `${svc.url}/api/reviews/changes?after=${cursor}`;
    const first = await http(url);
    expect(first.json()).toEqual({ changes: [], nextCursor: cursor, more: false });
    const again = await http(url, { headers: { 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
  });

  it("refuses a malformed cursor or limit (400) and another store's cursor (410)", async () => {
    for (const query of ['?after=not-a-cursor', '?limit=0', '?limit=1001', '?since=1']) {
      const res = await http(`${svc.url}/api/reviews/changes${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json<{ error: string }>().error).toBe('invalid_request');
    }
    const gone = await http(
      `${svc.url}/api/reviews/changes?after=${encodeChangeCursor('ffffffffffffffff', 3)}`,
    );
    expect(gone.status).toBe(410);
    expect(gone.json()).toMatchObject({
      error: 'cursor_expired',
      message: expect.stringContaining('/reviews.json') as unknown,
    });
  });

  it('never skips nor repeats a change committed between two pages', async () => {
    const first = await feed('?limit=3');
    const seen = first.changes.map((c) => c.review!.id);
    // One review already read and one not yet read are edited before the next page.
    const edits = [ROWS[0]!, ROWS[11]!].map((r) => ({
      ...r,
      reviewBody: `${r.reviewBody} (edited between pages)`,
    }));
    await importRows(svc.databaseUrl, edits);
    await settled(svc.databaseUrl, [svc.url]);
    const rest = await follow(first.nextCursor, 3);
    const ids = rest.changes.map((c) => c.review!.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set([...seen, ...ids])).toEqual(
      new Set(Object.keys(await publishedReviews(svc.url))),
    );
    for (const e of edits) {
      const id = reviewId(e.source, e.sourceReviewId);
      const last = rest.changes.filter((c) => c.review?.id === id).at(-1);
      expect(last?.review?.reviewBody).toBe(e.reviewBody);
    }
  });

  it('tells a remove as a removal, its undo as an upsert, and adds nothing for an import that changes nothing', async () => {
    const { cursor } = await follow('');
    const row = ROWS[7]!;
    const id = reviewId(row.source, row.sourceReviewId);
    await remove(svc.databaseUrl, id);
    await settled(svc.databaseUrl, [svc.url]);
    const hidden = await follow(cursor);
    expect(hidden.changes).toEqual([
      {
        seq: expect.any(Number) as unknown,
        type: 'removal',
        id,
        removedAt: expect.any(String) as unknown,
        reason: 'hidden',
      },
    ]);
    await remove(svc.databaseUrl, id, true);
    await settled(svc.databaseUrl, [svc.url]);
    const shown = await follow(hidden.cursor);
    expect(shown.changes.map((c) => [c.type, c.review?.id])).toEqual([['upsert', id]]);
    // The same rows again: no new version, no change.
    const before = await http(`${svc.url}/healthz`);
    await importRows(
      svc.databaseUrl,
      testReviews(12).map((r, i) =>
        i === 0 || i === 11 ? { ...r, reviewBody: `${r.reviewBody} (edited between pages)` } : r,
      ),
    );
    await settled(svc.databaseUrl, [svc.url]);
    expect((await http(`${svc.url}/healthz`)).json()).toEqual(before.json());
    expect((await follow(shown.cursor)).changes).toEqual([]);
  }, 60_000);

  it('is in the OpenAPI document: its parameters, its answers and their schema', async () => {
    const doc = (await http(`${svc.url}/openapi.json`)).json<{
      paths: Record<string, { get: { parameters: { name: string }[]; responses: object } }>;
      components: { schemas: Record<string, unknown> };
    }>();
    const op = doc.paths['/api/reviews/changes']!.get;
    expect(op.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['after', 'limit', 'If-None-Match']),
    );
    expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '400', '410']);
    expect(doc.components.schemas.ChangesResponse).toBeDefined();
    ChangesResponse.parse(await feed('?limit=1000'));
  });

  it('gives the same changes and cursors over MCP (get_changes, the official client)', async () => {
    const { client } = await connectClient(svc.url);
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: 'get_changes', arguments: args })) as unknown as {
          isError?: boolean;
          structuredContent: Page;
          content: { text: string }[];
        };
      const http1 = await feed('?limit=3');
      const first = await call({ limit: 3, detail: 'full' });
      expect(first.isError ?? false).toBe(false);
      expect(first.structuredContent).toEqual(http1);
      const second = await call({
        after: first.structuredContent.nextCursor,
        limit: 3,
        detail: 'full',
      });
      expect(second.structuredContent).toEqual(await feed(`?limit=3&after=${http1.nextCursor}`));
      const compact = await call({ limit: 2 });
      expect(compact.structuredContent.changes.map((c) => c.seq)).toEqual(
        http1.changes.slice(0, 2).map((c) => c.seq),
      );
      const gone = await call({ after: encodeChangeCursor('ffffffffffffffff', 1) });
      expect(gone.isError).toBe(true);
      expect(gone.content[0]!.text).toMatch(/reviews\.json/);
    } finally {
      await client.close();
    }
  });

  it('shows in docs/api.md the example client the tests run, as it is', () => {
    const root = join(import.meta.dirname, '..', '..');
    const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
    expect(doc).toContain(
      `\`\`\`js\n${readFileSync(join(root, 'examples', 'mirror.mjs'), 'utf8')}\`\`\``,
    );
  });

  it('keeps the example client of docs/api.md in step with /reviews.json through inserts, edits, a prune, a removal and an undo', async () => {
    // Seven processes (an import, three removes, the client twice): a longer timeout.
    const copyFile = join(svc.dir, 'mirror.json');
    expect(await runMirror(copyFile, [svc.url])).toEqual(await publishedReviews(svc.url));
    await liveChanges(svc.databaseUrl, ROWS);
    await settled(svc.databaseUrl, [svc.url]);
    const copy = await runMirror(copyFile, [svc.url]);
    const published = await publishedReviews(svc.url);
    expect(Object.keys(published)).toHaveLength(ROWS.length + 2 - 2);
    expect(copy).toEqual(published);
  }, 120_000);
});
