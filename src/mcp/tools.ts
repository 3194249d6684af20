import { z } from 'zod';
import { StaffRole } from '../domain/business.js';
import { AggregateRatingSchema, PublicBusiness, SearchResponse } from '../domain/public-schemas.js';
import { Review } from '../domain/review.js';
import { toPublicBusiness } from '../reviews/dataset.js';
import { toIssues } from '../domain/issues.js';
import { checkDateRange, DateParam, searchFields } from '../reviews/search-schema.js';
import { firstBefore, firstOnOrBefore, runSearch, type SortKey } from '../reviews/search.js';
import { sincePage } from '../reviews/since.js';
import { rangeAggregates } from '../reviews/views.js';
import type { Snapshot } from '../snapshot/types.js';
import { invalidParams, type RpcError } from './internal/errors.js';
import { decodeCursor, encodeCursor, fingerprint } from '../reviews/cursor.js';
import { insightsTool } from './insights-tool.js';

/** What a tool returns: structured content (validated by its output schema), or a tool error. */
export type ToolOutcome = { structured: Record<string, unknown> } | { error: string };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  run(args: Record<string, unknown>, snapshot: Snapshot): ToolOutcome;
}

const cursorField = z
  .string()
  .min(1)
  .max(500)
  .optional()
  .describe(
    'Opaque cursor from a previous call (`nextCursor`) to get the next page; keep the other arguments the same.',
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

const SearchToolInput = z
  .strictObject({ ...searchFields, cursor: cursorField })
  .superRefine(checkDateRange);

const searchReviews: ToolDefinition = {
  name: 'search_reviews',
  title: 'Search reviews',
  description:
    'Search the reviews. Every filter is optional and they combine with AND: rating (exact stars), min_rating, since/until (local dates, inclusive), query (case-insensitive substring of title or text), mentions_technician (full name or unique first name of a staff member), mentions_service (service id from get_business or list_services), limit (1-100, default 20). Results are newest first; `total` counts all matches; pass `nextCursor` back as `cursor` for more. Same rules as GET /api/reviews/search.',
  input: SearchToolInput,
  output: SearchResponse.extend({ nextCursor: z.string().nullable() }),
  run(args, snapshot) {
    const filters = args as z.output<typeof SearchToolInput>;
    const outcome = runSearch(snapshot.index, filters, afterCursor(args));
    if (!outcome.ok) {
      const first = outcome.issues[0]!;
      throw invalidParams(
        `Invalid arguments: ${first.path.join('.')}: ${first.message}`,
        outcome.issues,
      );
    }
    const { hits } = outcome;
    const last = hits.positions.at(-1);
    return {
      structured: {
        count: hits.positions.length,
        total: hits.total,
        limit: filters.limit,
        reviews: hits.positions.map((p) => snapshot.review(p)),
        nextCursor:
          hits.more && last !== undefined
            ? encodeCursor(snapshot.index.key(last), fingerprint(args))
            : null,
      },
    };
  },
};

const getBusiness: ToolDefinition = {
  name: 'get_business',
  title: 'Get business',
  description:
    'The business these reviews are about (name, address, time zone, staff roster with roles, service catalogue with ids and synonyms) and its aggregate rating.',
  input: z.strictObject({}),
  output: z.object({ business: PublicBusiness.nullable(), aggregateRating: AggregateRatingSchema }),
  run(_args, snapshot) {
    return {
      structured: {
        business: toPublicBusiness(snapshot.business),
        aggregateRating: snapshot.aggregate,
      },
    };
  },
};

const getReview: ToolDefinition = {
  name: 'get_review',
  title: 'Get one review',
  description: 'One review by its id (the `id` field of any review).',
  input: z.strictObject({ id: z.string().min(1).max(100).describe('The review id.') }),
  output: z.object({ review: Review }),
  run(args, snapshot) {
    const pos = snapshot.index.positionOf(String(args.id));
    return pos >= 0
      ? { structured: { review: snapshot.review(pos) } }
      : { error: 'No review has this id.' };
  },
};

const SinceInput = z.strictObject({
  date: DateParam.describe('Local date YYYY-MM-DD; reviews dated on or after it.'),
  limit: z.number().int().min(1).max(500).default(100).describe('Page size (1-500, default 100).'),
  cursor: cursorField,
});

const getReviewsSince: ToolDefinition = {
  name: 'get_reviews_since',
  title: 'Reviews since a date',
  description:
    'Reviews dated on or after a local date, oldest first (like GET /api/reviews/since/{date}), paged: `total` counts them all, `nextCursor` continues.',
  input: SinceInput,
  output: z.object({
    since: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    reviews: z.array(Review),
    nextCursor: z.string().nullable(),
  }),
  run(args, snapshot) {
    const { date, limit } = args as z.output<typeof SinceInput>;
    const page = sincePage(snapshot.index, date, limit, afterCursor(args));
    return {
      structured: {
        since: date,
        count: page.positions.length,
        total: page.total,
        reviews: page.positions.map((p) => snapshot.review(p)),
        nextCursor: page.next ? encodeCursor(page.next, fingerprint(args)) : null,
      },
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
  run(args, snapshot) {
    const { group_by, since, until } = args as z.output<typeof SummaryInput>;
    const { index } = snapshot;
    const from = until === undefined ? 0 : firstOnOrBefore(index, until);
    const to = since === undefined ? index.size : firstBefore(index, since);
    return { structured: rangeAggregates(index, from, Math.max(from, to), group_by) };
  },
};

const listTechnicians: ToolDefinition = {
  name: 'list_technicians',
  title: 'List staff',
  description:
    'Staff on the roster (technicians, service advisors, sales, ...) and people the review sources tagged, with how many reviews mention each and the average rating of those reviews. Use a name with search_reviews.mentions_technician.',
  input: z.strictObject({ role: StaffRole.optional().describe('Only staff with this role.') }),
  output: z.object({
    technicians: z.array(
      z.object({
        name: z.string(),
        role: z.string().nullable(),
        active: z.boolean().nullable(),
        mentions: z.number().int(),
        averageRating: z.number().nullable(),
      }),
    ),
  }),
  run(args, snapshot) {
    const all = snapshot.views.staff;
    return {
      structured: { technicians: args.role ? all.filter((s) => s.role === args.role) : all },
    };
  },
};

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
  run(_args, snapshot) {
    return { structured: { services: snapshot.views.services } };
  },
};

/** Every tool of the server, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  getBusiness,
  searchReviews,
  getReview,
  getReviewsSince,
  getRatingSummary,
  listTechnicians,
  listServices,
  insightsTool,
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
