import { z } from 'zod';
import type { ServiceUrls } from '../catalogue.js';
import { StaffRole } from '../domain/business.js';
import { toIssues } from '../domain/issues.js';
import { AggregateRatingSchema, type PublicBusiness } from '../domain/public-schemas.js';
import type { Review } from '../domain/review.js';
import { fingerprint } from '../reviews/cursor.js';
import { toPublicBusiness } from '../reviews/dataset.js';
import { checkDateRange, DateParam, searchFields } from '../reviews/search-schema.js';
import { firstBefore, firstOnOrBefore, runSearch, type SortKey } from '../reviews/search.js';
import { normalizeName } from '../reviews/search-index.js';
import { sincePage } from '../reviews/since.js';
import { rangeAggregates } from '../reviews/views.js';
import type { Snapshot } from '../snapshot/types.js';
import {
  AgentReview,
  clip,
  DEFAULT_RESULT_TOKENS,
  fitPage,
  jsonBytes,
  pageTokens,
  reviewsText,
  shapeReview,
  structuredBudget,
  TEXT_CAP,
  TEXT_CUT,
  type TextBuilder,
} from './agent.js';
import {
  groupCursor,
  keyCursor,
  offsetCursor,
  readGroupCursor,
  readKeyCursor,
  readOffsetCursor,
} from './internal/cursor.js';
import { fitStrings } from './internal/fit.js';
import { invalidParams, type RpcError } from './internal/errors.js';
import { closestNames } from './internal/closest.js';
import { insightsOf, insightsTool } from './insights-tool.js';

/**
 * What a tool returns: structured content (validated by its output schema) with the builder of its
 * text copy (a compact plain-text rendering at a cap on free texts, not a second JSON: the server
 * picks the richest that fits half the structured content's bytes; see docs/mcp.md), or a tool
 * error.
 */
export type ToolOutcome =
  { structured: Record<string, unknown>; text?: TextBuilder } | { error: string };

/** What a tool runs over: one snapshot, and the service's URLs. */
export interface ToolContext {
  snapshot: Snapshot;
  urls: ServiceUrls;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  run(args: Record<string, unknown>, ctx: ToolContext): ToolOutcome;
}

const cursorField = z
  .string()
  .min(1)
  .max(500)
  .optional()
  .describe(
    'Opaque cursor from a previous call (`nextCursor`) to get the next page; keep the other arguments the same.',
  );

const detailField = z
  .enum(['compact', 'full'])
  .default('compact')
  .describe(
    `compact (default): id, date, rating, author, title, text, language and translation (when not English), the owner reply, mentions and a link, with no empty fields (texts over ${TEXT_CAP.toLocaleString('en-US')} characters are cut, saying so). full: the whole review record (a text too long for the result's budget is cut, saying so; review://{id} has it all).`,
  );

function invalidArgument(path: string, message: string): RpcError {
  return invalidParams(`Invalid arguments: ${path}: ${message}`, [
    { path: [path], code: 'invalid', message },
  ]);
}

/** The arguments a cursor is bound to: the filters, not the page size or the shape. */
function filtersOf(args: Record<string, unknown>): Record<string, unknown> {
  const { cursor: _c, limit: _l, detail: _d, ...filters } = args;
  return filters;
}

function afterCursor(args: Record<string, unknown>): SortKey | undefined {
  if (typeof args.cursor !== 'string') return undefined;
  const key = readKeyCursor(args.cursor, fingerprint(filtersOf(args)));
  if (!key) throw invalidArgument('cursor', 'is not a cursor for these filters');
  return key;
}

/** What a page's structured content holds besides its reviews (counts, the cursor). */
const PAGE_OVERHEAD_BYTES = 400;

/**
 * The reviews at some positions, in the shape asked for, cut to the budget of `limit` (a review
 * larger than the whole budget has its longest texts cut, saying so).
 */
function reviewPage(
  ctx: ToolContext,
  positions: Iterable<number>,
  limit: number,
  detail: 'compact' | 'full',
): { reviews: (AgentReview | Review)[]; last: number | undefined; more: boolean } {
  const base = ctx.urls.base;
  const items = (function* () {
    for (const pos of positions) {
      const review = ctx.snapshot.review(pos);
      const value = shapeReview(review, detail, base);
      yield { pos, review, value, bytes: jsonBytes(value) };
    }
  })();
  const { taken, more } = fitPage(
    items,
    limit,
    structuredBudget(pageTokens(limit)) - PAGE_OVERHEAD_BYTES,
    (i) => i.bytes,
    (i, maxBytes) => ({ ...i, value: shapeReview(i.review, detail, base, maxBytes) }),
  );
  return { reviews: taken.map((i) => i.value), last: taken.at(-1)?.pos, more };
}

/** Normalised for "did you mean": lower case, no accents, letters and digits only. */
function folded(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface ServiceNames {
  /** Each id, name and synonym folded, with the id it belongs to (the first wins). */
  owner: Map<string, string>;
  /** The same without spaces ("a c" and "ac" for "A/C"). */
  joined: Map<string, string>;
}

const serviceNames = new WeakMap<object, ServiceNames>();

/** The names of the catalogue folded once per data version (500 services may have 50 each). */
function namesOf(
  services: readonly { id: string; name: string; synonyms: readonly string[] }[],
): ServiceNames {
  let names = serviceNames.get(services);
  if (!names) {
    names = { owner: new Map(), joined: new Map() };
    for (const s of services) {
      for (const n of [s.id, s.name, ...s.synonyms]) {
        const f = folded(n);
        if (!names.owner.has(f)) names.owner.set(f, s.id);
        if (!names.joined.has(f.replace(/ /g, ''))) names.joined.set(f.replace(/ /g, ''), s.id);
      }
    }
    serviceNames.set(services, names);
  }
  return names;
}

/** The ids of the services whose id, name or a synonym is closest to `wanted`, best first. */
function closestServices(
  wanted: string,
  services: readonly { id: string; name: string; synonyms: readonly string[] }[],
): string[] {
  const w = folded(wanted);
  const { owner, joined } = namesOf(services);
  // A name or synonym that is the same once folded ("a/c", "AC", "Brake service") is the answer.
  const exact = owner.get(w) ?? joined.get(w.replace(/ /g, ''));
  if (exact) return [exact];
  const near = closestNames(w, [...owner.keys()], 12).map((n) => owner.get(n)!);
  return [...new Set(near)].slice(0, 3);
}

/** Staff names and service ids the data knows, for "did you mean". */
function unknownName(ctx: ToolContext, filters: Record<string, unknown>): string | null {
  const { index, views } = ctx.snapshot;
  const staff = filters.mentions_technician;
  if (typeof staff === 'string') {
    const key = normalizeName(staff);
    if (index.staff(key) === undefined && index.ambiguous(key) === undefined) {
      const names = views.staff.map((s) => s.name);
      const near = closestNames(staff, names);
      return `No staff member is called "${staff.slice(0, 120)}".${near.length ? ` Closest names: ${near.join(', ')}.` : ''} list_staff lists everyone.`;
    }
  }
  const service = filters.mentions_service;
  if (typeof service === 'string') {
    const services = views.services;
    if (!services.some((s) => s.id === service) && index.service(service).length === 0) {
      const near = closestServices(service, services);
      const named = near.map((id) => `${id} (${services.find((s) => s.id === id)?.name ?? id})`);
      return `No service has the id "${service.slice(0, 64)}".${near.length ? ` Closest ids: ${named.join(', ')}.` : ''} list_services lists them.`;
    }
  }
  return null;
}

const SearchToolInput = z
  .strictObject({ ...searchFields, detail: detailField, cursor: cursorField })
  .superRefine(checkDateRange);

/**
 * A review in a page's output schema: the compact shape, or (detail: full) the full record, given
 * loosely here (its schema is `Review` in /openapi.json) to keep `tools/list` short.
 */
const ReviewItem = z.union([
  AgentReview,
  z
    .looseObject({
      id: z.string(),
      reviewRating: z.looseObject({ ratingValue: z.number().int() }),
      date: z.string(),
    })
    .describe(
      'detail "full": the whole review record, as GET /api/reviews/search returns it (schema Review in /openapi.json).',
    ),
]);

const searchReviews: ToolDefinition = {
  name: 'search_reviews',
  title: 'Search reviews',
  description:
    'Search the reviews. Every filter is optional and they combine with AND: rating (exact stars), min_rating, since/until (local dates, inclusive), query (case-insensitive substring of title or text), mentions_technician (full name or unique first name of a staff member), mentions_service (service id from list_services), limit (1-100, default 20). Results are newest first; `total` counts all matches; a page ends at `limit` or at its size budget (about 375 tokens per review asked for), whichever comes first: pass `nextCursor` back as `cursor` (with the same filters) for more. detail: compact (default) or full. Same rules as GET /api/reviews/search.',
  input: SearchToolInput,
  output: z.object({
    count: z.number().int(),
    total: z.number().int(),
    limit: z.number().int(),
    reviews: z.array(ReviewItem),
    nextCursor: z.string().nullable(),
  }),
  run(args, ctx) {
    const filters = args as z.output<typeof SearchToolInput>;
    const unknown = unknownName(ctx, filters);
    if (unknown) return { error: unknown };
    const outcome = runSearch(ctx.snapshot.index, filters, afterCursor(args));
    if (!outcome.ok) {
      const first = outcome.issues[0]!;
      throw invalidParams(
        `Invalid arguments: ${first.path.join('.')}: ${first.message}`,
        outcome.issues,
      );
    }
    const { hits } = outcome;
    const page = reviewPage(ctx, hits.positions, filters.limit, filters.detail);
    const more = page.more || hits.more;
    const nextCursor =
      more && page.last !== undefined
        ? keyCursor(ctx.snapshot.index.key(page.last), fingerprint(filtersOf(args)))
        : null;
    const head = `${page.reviews.length} of ${hits.total} matching reviews, newest first${nextCursor ? `; more with cursor ${nextCursor}` : ''}.`;
    return {
      structured: {
        count: page.reviews.length,
        total: hits.total,
        limit: filters.limit,
        reviews: page.reviews,
        nextCursor,
      },
      text: reviewsText(head, page.reviews),
    };
  },
};

/** An aggregate rating in a line: `4.08/5 of 1800 (1565 with text); 1-5★: 234 96 96 234 1140`. */
function ratingLine(a: z.infer<typeof AggregateRatingSchema>): string {
  const d = a.distribution;
  return `${a.ratingValue ?? 'none'}/5 of ${a.ratingCount} (${a.reviewCount} with text); 1-5★: ${d[1]} ${d[2]} ${d[3]} ${d[4]} ${d[5]}`;
}

interface BusinessResult {
  business: Partial<Omit<PublicBusiness, 'staff' | 'services'>> | null;
  aggregateRating: z.infer<typeof AggregateRatingSchema>;
  staffCount: number;
  serviceCount: number;
}

/** The text copy of get_business: the facts in a few sentences. */
function businessText({
  business: b,
  aggregateRating,
  staffCount,
  serviceCount,
}: BusinessResult): TextBuilder {
  return ({ cap }) => {
    const clipped = (s: string) => clip(s, Math.max(cap, 40));
    const lines: string[] = [];
    if (b) {
      const a = b.address;
      const where = a
        ? [
            a.streetAddress,
            a.addressLocality,
            `${a.addressRegion} ${a.postalCode}`.trim(),
            a.addressCountry,
          ]
            .filter(Boolean)
            .join(', ')
        : '';
      const facts = [
        `${clipped(b.name ?? '')}${b.legalName ? ` (${clipped(b.legalName)})` : ''}: ${clipped(where)}`,
        b.telephone ? `tel ${b.telephone}` : null,
        b.url ? clipped(b.url) : null,
        b.timeZone,
        b.brands?.length ? `brands ${b.brands.map(clipped).join(', ')}` : null,
      ];
      lines.push(facts.filter(Boolean).join('; '));
      if (b.departments?.length)
        lines.push(
          `departments: ${b.departments.map((d) => `${clipped(d.name)}${d.id === d.name.toLowerCase() ? '' : ` [${d.id}]`}${d.telephone ? ` ${d.telephone}` : ''}`).join(', ')}`,
        );
    } else lines.push('No business profile was imported.');
    lines.push(`rating ${ratingLine(aggregateRating)}`);
    lines.push(
      `${staffCount} staff, ${serviceCount} services: list_staff, list_services${b?.sameAs?.length ? `; ${b.sameAs.length} profiles elsewhere (sameAs)` : ''}`,
    );
    return lines.join('\n');
  };
}

/** The free strings of a business profile, which a profile at the import's limits may make long. */
const BUSINESS_TEXT = new Set([
  'name',
  'legalName',
  'url',
  'sameAs[]',
  'brands[]',
  'streetAddress',
  'addressLocality',
  'addressRegion',
]);

const getBusiness: ToolDefinition = {
  name: 'get_business',
  title: 'Get business',
  description:
    'The business these reviews are about (name, address, telephone, time zone, brands, departments) with its aggregate rating, and how many staff and services it lists (list_staff and list_services give them).',
  input: z.strictObject({}),
  output: z.object({
    business: z.record(z.string(), z.unknown()).nullable(),
    aggregateRating: AggregateRatingSchema,
    staffCount: z.number().int(),
    serviceCount: z.number().int(),
  }),
  run(_args, { snapshot }) {
    const full = toPublicBusiness(snapshot.business);
    const business = full
      ? Object.fromEntries(
          Object.entries(full).filter(
            ([k, v]) =>
              k !== 'staff' &&
              k !== 'services' &&
              v !== null &&
              !(Array.isArray(v) && v.length === 0),
          ),
        )
      : null;
    const structured = fitStrings(
      {
        business,
        aggregateRating: snapshot.aggregate,
        staffCount: full?.staff.length ?? 0,
        serviceCount: full?.services.length ?? 0,
      },
      structuredBudget(DEFAULT_RESULT_TOKENS),
      { weight: (k) => (BUSINESS_TEXT.has(k) ? 1 : 0), mark: () => TEXT_CUT },
    );
    return { structured, text: businessText(structured as BusinessResult) };
  },
};

const getReview: ToolDefinition = {
  name: 'get_review',
  title: 'Get one review',
  description:
    'One review by its id (the `id` field of any review): the full record by default, or the compact shape. A text too long for the result (reviews may hold 20,000 characters) is cut, saying so; the resource review://{id} holds the whole record.',
  input: z.strictObject({
    id: z.string().min(1).max(100).describe('The review id.'),
    detail: detailField.default('full'),
  }),
  output: z.object({ review: ReviewItem }),
  run(args, ctx) {
    const pos = ctx.snapshot.index.positionOf(String(args.id));
    if (pos < 0) return { error: 'No review has this id.' };
    const review = shapeReview(
      ctx.snapshot.review(pos),
      args.detail as 'compact' | 'full',
      ctx.urls.base,
      structuredBudget(DEFAULT_RESULT_TOKENS) - 32,
    );
    return { structured: { review }, text: reviewsText('One review.', [review]) };
  },
};

const SinceInput = z.strictObject({
  date: DateParam.describe('Local date YYYY-MM-DD; reviews dated on or after it.'),
  limit: z.number().int().min(1).max(500).default(20).describe('Page size (1-500, default 20).'),
  detail: detailField,
  cursor: cursorField,
});

const getReviewsSince: ToolDefinition = {
  name: 'get_reviews_since',
  title: 'Reviews since a date',
  description:
    'Reviews dated on or after a local date, oldest first (date, then publication time, then id), like GET /api/reviews/since/{date}, paged: `total` counts them all; a page ends at `limit` or at its size budget (about 375 tokens per review asked for); `nextCursor` continues (with the same date).',
  input: SinceInput,
  output: z.object({
    since: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    reviews: z.array(ReviewItem),
    nextCursor: z.string().nullable(),
  }),
  run(args, ctx) {
    const { date, limit, detail } = args as z.output<typeof SinceInput>;
    // The candidates of a page: `limit` at most, then cut to the budget.
    const page = sincePage(ctx.snapshot.index, date, limit, afterCursor(args));
    const cut = reviewPage(ctx, page.positions, limit, detail);
    const next = cut.more && cut.last !== undefined ? ctx.snapshot.index.key(cut.last) : page.next;
    const nextCursor = next ? keyCursor(next, fingerprint(filtersOf(args))) : null;
    const head = `${cut.reviews.length} of ${page.total} reviews dated ${date} or later, oldest first${nextCursor ? `; more with cursor ${nextCursor}` : ''}.`;
    return {
      structured: {
        since: date,
        count: cut.reviews.length,
        total: page.total,
        reviews: cut.reviews,
        nextCursor,
      },
      text: reviewsText(head, cut.reviews),
    };
  },
};

const SummaryInput = z
  .strictObject({
    group_by: z
      .enum(['month', 'department', 'source'])
      .optional()
      .describe('Also break the figures down by this.'),
    since: searchFields.since,
    until: searchFields.until,
    cursor: cursorField,
  })
  .superRefine(checkDateRange);

function afterGroup(cursor: string, print: string): string {
  const key = readGroupCursor(cursor, print);
  if (key === null) throw invalidArgument('cursor', 'is not a cursor for these filters');
  return key;
}

/** The aggregate rating, defined once in the output schema (`$defs`) and referred to twice. */
const AggregateRatingRef = AggregateRatingSchema.meta({ id: 'AggregateRating' });

const getRatingSummary: ToolDefinition = {
  name: 'get_rating_summary',
  title: 'Rating summary',
  description:
    'Star distribution and average rating, overall and optionally per month, department or source (groups in key order: months oldest first), for all reviews or a date range. Long group lists (many years by month) are paged: `groupCount` counts the groups, `nextCursor` continues.',
  input: SummaryInput,
  output: z.object({
    overall: AggregateRatingRef,
    groups: z.array(z.object({ key: z.string(), aggregateRating: AggregateRatingRef })),
    groupCount: z.number().int(),
    nextCursor: z.string().nullable(),
  }),
  run(args, { snapshot }) {
    const { group_by, since, until, cursor } = args as z.output<typeof SummaryInput>;
    const { index } = snapshot;
    const from = until === undefined ? 0 : firstOnOrBefore(index, until);
    const to = since === undefined ? index.size : firstBefore(index, since);
    const { overall, groups } = rangeAggregates(index, from, Math.max(from, to), group_by);
    const print = fingerprint(filtersOf(args));
    const after = cursor === undefined ? undefined : afterGroup(cursor, print);
    const rest = after === undefined ? groups : groups.filter((g) => g.key > after);
    const { taken, more } = fitPage(
      rest,
      Number.MAX_SAFE_INTEGER,
      structuredBudget(DEFAULT_RESULT_TOKENS) - jsonBytes(overall) - PAGE_OVERHEAD_BYTES,
      jsonBytes,
      (g) => g,
    );
    const structured = {
      overall,
      groups: taken,
      groupCount: groups.length,
      nextCursor: more ? groupCursor(taken.at(-1)!.key, print) : null,
    };
    return { structured };
  },
};

const StaffEntry = z.object({
  name: z.string(),
  role: z.string().nullable(),
  active: z.boolean().nullable(),
  mentions: z.number().int(),
  averageRating: z.number().nullable(),
  positive: z.number().int().optional().describe('Mentions the insights read as praise.'),
  negative: z.number().int().optional().describe('Mentions the insights read as a complaint.'),
  score: z
    .number()
    .nullable()
    .optional()
    .describe('Sentiment of the mentions, -1 to 1 (absent while the insights are computed).'),
});

/** Praise and complaints of each staff member, from the insights (when they are ready). */
function withSentiment(snapshot: Snapshot, list: readonly z.infer<typeof StaffEntry>[]) {
  const people = insightsOf(snapshot)?.entities.technicians ?? [];
  const byName = new Map(people.map((p) => [p.name, p]));
  return list.map((s) => {
    const p = byName.get(s.name);
    return p ? { ...s, positive: p.positive, negative: p.negative, score: p.score } : s;
  });
}

function listOffset(cursor: string, print: string): number {
  const offset = readOffsetCursor(cursor, print);
  if (offset === null)
    throw invalidArgument(
      'cursor',
      'is not a cursor for these filters, or the data changed since: start again without it',
    );
  return offset;
}

/**
 * A page of a list (staff, services) within the default budget: as many items as fit, the
 * count of all and a cursor for the rest. Lists are short on a real roster; this bounds the
 * largest a business profile and the sources' tags may make (thousands of names).
 */
function listPage<T>(
  items: readonly T[],
  args: Record<string, unknown>,
  snapshot: Snapshot,
): { taken: T[]; total: number; nextCursor: string | null } {
  const print = fingerprint({ ...filtersOf(args), version: snapshot.state.version });
  const offset = typeof args.cursor === 'string' ? listOffset(args.cursor, print) : 0;
  const { taken, more } = fitPage(
    items.slice(offset),
    Number.MAX_SAFE_INTEGER,
    structuredBudget(DEFAULT_RESULT_TOKENS) - PAGE_OVERHEAD_BYTES,
    jsonBytes,
    (item, maxBytes) =>
      fitStrings(item, maxBytes, {
        weight: (k) => (k === 'name' ? 4 : k === 'synonyms[]' ? 1 : 0),
        mark: () => TEXT_CUT,
      }),
  );
  return {
    taken,
    total: items.length,
    nextCursor: more ? offsetCursor(offset + taken.length, print) : null,
  };
}

const listCursorField = cursorField.describe(
  '`nextCursor` of the previous page (long lists are paged; keep the other arguments the same).',
);

const staffInput = z.strictObject({
  role: StaffRole.optional().describe('Only staff with this role (technician, sales, ...).'),
  cursor: listCursorField,
});

function listStaff(name: string, key: 'staff' | 'technicians'): ToolDefinition {
  return {
    name,
    title: key === 'staff' ? 'List staff' : 'List staff (old name)',
    description:
      key === 'staff'
        ? 'Everyone on the roster (technicians, service advisors, sales, ...) and the people the review sources tagged, with how many reviews mention each, the average rating of those reviews and how many mentions praise or criticise them (positive, negative, score from the insights), most mentioned first. Filter by role. Use a name with search_reviews.mentions_technician. A very long list is paged (`total`, `nextCursor`).'
        : 'The same as list_staff (every role, not only technicians), under its first name; the result is under `technicians`. New clients use list_staff.',
    input: staffInput,
    output: z.object({
      [key]: z.array(StaffEntry),
      total: z.number().int(),
      nextCursor: z.string().nullable(),
    }),
    run(args, { snapshot }) {
      const all = snapshot.views.staff;
      const list = args.role ? all.filter((s) => s.role === args.role) : all;
      const page = listPage(withSentiment(snapshot, list), args, snapshot);
      return { structured: { [key]: page.taken, total: page.total, nextCursor: page.nextCursor } };
    },
  };
}

const listServices: ToolDefinition = {
  name: 'list_services',
  title: 'List services',
  description:
    "The business's service catalogue (ids, names, synonyms) with how many reviews mention each service and their average rating. Use an id with search_reviews.mentions_service. A very long catalogue is paged (`total`, `nextCursor`).",
  input: z.strictObject({ cursor: listCursorField }),
  output: z.object({
    services: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        synonyms: z.array(z.string()),
        mentions: z.number().int(),
        averageRating: z.number().nullable(),
      }),
    ),
    total: z.number().int(),
    nextCursor: z.string().nullable(),
  }),
  run(args, { snapshot }) {
    const page = listPage(snapshot.views.services, args, snapshot);
    return {
      structured: { services: page.taken, total: page.total, nextCursor: page.nextCursor },
    };
  },
};

/** Every tool of the server, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  getBusiness,
  searchReviews,
  getReview,
  getReviewsSince,
  getRatingSummary,
  listStaff('list_staff', 'staff'),
  listServices,
  insightsTool,
  listStaff('list_technicians', 'technicians'),
];

/** Validates tool arguments; invalid ones are a JSON-RPC -32602 naming each offending field. */
export function parseToolArguments(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  const parsed = tool.input.safeParse(args ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issues = toIssues(parsed.error);
  const summary = issues
    .map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`)
    .join('; ');
  throw invalidParams(`Invalid arguments for tool ${tool.name}: ${summary}`, issues);
}
