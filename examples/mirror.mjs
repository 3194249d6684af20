// Keeps a local copy of the published reviews in step with the service: the whole dataset once,
// then the change feed. Usage: node examples/mirror.mjs <copy.json> <base-url>...
// (several base URLs are asked in turn, as a load balancer would spread the requests).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [file, ...bases] = process.argv.slice(2);
let turn = 0;
const get = (path) => fetch(`${bases[turn++ % bases.length]}${path}`);
let copy = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;

for (let more = true; more;) {
  if (!copy) {
    // Once: every review, and where the change feed goes on from (the same version's cursor).
    const res = await get('/reviews.json');
    const { reviews } = await res.json();
    copy = { cursor: res.headers.get('Changes-Cursor'), reviews: {} };
    for (const r of reviews) copy.reviews[r.id] = r;
  }
  const res = await get(`/api/reviews/changes?limit=1000&after=${copy.cursor}`);
  if (res.status === 410) {
    copy = null; // the cursor is another store's: start again
    continue;
  }
  if (!res.ok) throw new Error(`changes: HTTP ${res.status}`);
  const page = await res.json();
  for (const c of page.changes) {
    if (c.type === 'upsert') copy.reviews[c.review.id] = c.review;
    else delete copy.reviews[c.id];
  }
  ({ nextCursor: copy.cursor, more } = page);
}
writeFileSync(file, JSON.stringify(copy));
