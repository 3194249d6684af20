import { z } from 'zod';
import type { ServiceUrls } from '../catalogue.js';
import { StaffRole } from '../domain/business.js';
import { toIssues } from '../domain/issues.js';
import { AggregateRatingSchema } from '../domain/public-schemas.js';
import { Review } from '../domain/review.js';
import { decodeCursor, encodeCursor, fingerprint } from '../reviews/cursor.js';
import { toPublicBusiness } from '../reviews/dataset.js';
import { checkDateRange, DateParam, searchFields } from '../reviews/search-schema.js';
import { firstBefore, firstOnOrBefore, runSearch, type SortKey } from '../reviews/search.js';
import { normalizeName } from '../reviews/search-index.js';
import { sincePage } from '../reviews/since.js';
import { rangeAggregates } from '../reviews/views.js';
import type { Snapshot } from '../snapshot/types.js';
import {
  AgentReview,
  budgetFor,
  fitToBudget,
  jsonBytes,
  renderText,
  reviewLine,
  toAgentReview,
} from './agent.js';
import { invalidParams, type RpcError } from './internal/errors.js';
import { closestNames } from './internal/closest.js';
import { insightsOf, insightsTool } from './insights-tool.js';

/**
 * What a tool returns: structured content (validated by its output schema) with its text copy
 * (a compact plain-text rendering, not a second JSON: see docs/mcp.md), or a tool error.
 */
export type ToolOutcome =
  { structured: Record<string, unknown>; text?: string } | { error: string };

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
    'compact (default): id, date, rating, author, title, text, the owner reply, mentions and a link, with no empty fields (texts over 1,500 characters are cut). full: the whole review record.',
  );

function invalidArgument(path: string, message: string): RpcError {
  return invalidParams(`Invalid arguments: ${path}: ${message}`, [
    { path: [path], code: 'invalid', message },
  ]);
}

function afterCursor(args: Record<string, unknown>): SortKey | undefined {
  if (typeof args.cursor !== 'string') return undefined;
  const key = decodeCursor(args.cursor, fingerprint(args));
  if (!key) throw invalidArgument('cursor', 'is not a cursor for these arguments');
  return key;
}

/** A review in the shape asked for. */
function shaped(review: Review, detail: 'compact' | 'full', urls: ServiceUrls): unknown {
  return detail === 'full' ? review : toAgentReview(review, urls.base);
}

/** The reviews at some positions, in the shape asked for, cut to the budget of `limit`. */
function reviewPage(
  ctx: ToolContext,
  positions: Iterable<number>,
  limit: number,
  detail: 'compact' | 'full',
): { reviews: unknown[]; lines: string[]; last: number | undefined; more: boolean } {
  const items = (function* () {
    for (const pos of positions) {
      const review = ctx.snapshot.review(pos);
      const value = shaped(review, detail, ctx.urls);
      yield { pos, value, line: reviewLine(review) };
    }
  })();
  const { taken, more } = fitToBudget(
    items,
    limit,
    budgetFor(limit),
    (i) => jsonBytes(i.value) + jsonBytes(i.line),
  );
  return {
    reviews: taken.map((i) => i.value),
    lines: taken.map((i) => i.line),
    last: taken.at(-1)?.pos,
    more,
  };
}

/** Staff names and service ids the data knows, for "did you mean". */
function unknownName(ctx: ToolContext, filters: Record<string, unknown>): string | null {
  const { index, business, views } = ctx.snapshot;
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
    const ids = (business?.services ?? []).map((s) => s.id);
    if (!ids.includes(service) && index.service(service).length === 0) {
      const near = closestNames(service, ids);
      return `No service has the id "${service.slice(0, 64)}".${near.length ? ` Closest ids: ${near.join(', ')}.` : ''} list_services lists them.`;
    }
  }
  return null;
}

const SearchToolInput = z
  .strictObject({ ...searchFields, detail: detailField, cursor: cursorField })
  .superRefine(checkDateRange);

const searchReviews: ToolDefinition = {
  name: 'search_reviews',
  title: 'Search reviews',
  description:
    'Search the reviews. Every filter is optional and they combine with AND: rating (exact stars), min_rating, since/until (local dates, inclusive), query (case-insensitive substring of title or text), mentions_technician (full name or unique first name of a staff member), mentions_service (service id from list_services), limit (1-100, default 20). Results are newest first; `total` counts all matches; a page ends at `limit` or at about 375 tokens per review asked for, whichever comes first: pass `nextCursor` back as `cursor` for more. detail: compact (default) or full. Same rules as GET /api/reviews/search.',
  input: SearchToolInput,
  output: z.object({
    count: z.number().int(),
    total: z.number().int(),
    limit: z.number().int(),
    reviews: z.array(z.union([AgentReview, Review])),
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
        ? encodeCursor(ctx.snapshot.index.key(page.last), fingerprint(args))
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
      text: [head, ...page.lines].join('\n'),
    };
  },
};

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
    const structured = {
      business,
      aggregateRating: snapshot.aggregate,
      staffCount: full?.staff.length ?? 0,
      serviceCount: full?.services.length ?? 0,
    };
    return { structured, text: renderText(structured) };
  },
};

const getReview: ToolDefinition = {
  name: 'get_review',
  title: 'Get one review',
  description:
    'One review by its id (the `id` field of any review), with every field (the full record).',
  input: z.strictObject({
    id: z.string().min(1).max(100).describe('The review id.'),
    detail: detailField.default('full'),
  }),
  output: z.object({ review: z.union([Review, AgentReview]) }),
  run(args, ctx) {
    const pos = ctx.snapshot.index.positionOf(String(args.id));
    if (pos < 0) return { error: 'No review has this id.' };
    const review = ctx.snapshot.review(pos);
    const structured = {
      review: shaped(review, args.detail as 'compact' | 'full', ctx.urls),
    };
    return { structured, text: renderText(structured) };
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
    'Reviews dated on or after a local date, oldest first (date, then publication time, then id), like GET /api/reviews/since/{date}, paged: `total` counts them all; a page ends at `limit` or at about 375 tokens per review asked for; `nextCursor` continues.',
  input: SinceInput,
  output: z.object({
    since: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    reviews: z.array(z.union([AgentReview, Review])),
    nextCursor: z.string().nullable(),
  }),
  run(args, ctx) {
    const { date, limit, detail } = args as z.output<typeof SinceInput>;
    // The candidates of a page: `limit` at most, then cut to the budget.
    const page = sincePage(ctx.snapshot.index, date, limit, afterCursor(args));
    const cut = reviewPage(ctx, page.positions, limit, detail);
    const next = cut.more && cut.last !== undefined ? ctx.snapshot.index.key(cut.last) : page.next;
    const nextCursor = next ? encodeCursor(next, fingerprint(args)) : null;
    const head = `${cut.reviews.length} of ${page.total} reviews dated ${date} or later, oldest first${nextCursor ? `; more with cursor ${nextCursor}` : ''}.`;
    return {
      structured: {
        since: date,
        count: cut.reviews.length,
        total: page.total,
        reviews: cut.reviews,
        nextCursor,
      },
      text: [head, ...cut.lines].join('\n'),
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
  })
  .superRefine(checkDateRange);

const getRatingSummary: ToolDefinition = {
  name: 'get_rating_summary',
  title: 'Rating summary',
  description:
    'Star distribution and average rating, overall and optionally per month, department or source, for all reviews or a date range.',
  input: SummaryInput,
  output: z.object({
    overall: AggregateRatingSchema,
    groups: z.array(z.object({ key: z.string(), aggregateRating: AggregateRatingSchema })),
  }),
  run(args, { snapshot }) {
    const { group_by, since, until } = args as z.output<typeof SummaryInput>;
    const { index } = snapshot;
    const from = until === undefined ? 0 : firstOnOrBefore(index, until);
    const to = since === undefined ? index.size : firstBefore(index, since);
    const structured = rangeAggregates(index, from, Math.max(from, to), group_by);
    return { structured, text: renderText(structured) };
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

const staffInput = z.strictObject({
  role: StaffRole.optional().describe('Only staff with this role (technician, sales, ...).'),
});

function listStaff(name: string, key: 'staff' | 'technicians'): ToolDefinition {
  return {
    name,
    title: key === 'staff' ? 'List staff' : 'List staff (old name)',
    description:
      key === 'staff'
        ? 'Everyone on the roster (technicians, service advisors, sales, ...) and the people the review sources tagged, with how many reviews mention each, the average rating of those reviews and how many mentions praise or criticise them (positive, negative, score from the insights), most mentioned first. Filter by role. Use a name with search_reviews.mentions_technician.'
        : 'The same as list_staff (every role, not only technicians), under its first name; the result is under `technicians`. New clients use list_staff.',
    input: staffInput,
    output: z.object({ [key]: z.array(StaffEntry) }),
    run(args, { snapshot }) {
      const all = snapshot.views.staff;
      const list = args.role ? all.filter((s) => s.role === args.role) : all;
      const structured = { [key]: withSentiment(snapshot, list) };
      return { structured, text: renderText(structured) };
    },
  };
}

const listServices: ToolDefinition = {
  name: 'list_services',
  title: 'List services',
  description:
    "The business's service catalogue (ids, names, synonyms) with how many reviews mention each service and their average rating. Use an id with search_reviews.mentions_service.",
  input: z.strictObject({}),
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
  }),
  run(_args, { snapshot }) {
    const structured = { services: snapshot.views.services };
    return { structured, text: renderText(structured) };
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
