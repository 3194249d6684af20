import { z } from 'zod';
import { isCalendarDate } from '../domain/dates.js';
import { normalizeName } from './search-index.js';
import { toIssues, type Issue } from '../domain/issues.js';
import { dict, own, type Dict } from '../platform/dict.js';
import { ASPECT_IDS, REVIEW_POLARITIES } from '../domain/aspects.js';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const QUERY_MAX_LENGTH = 200;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** A calendar date parameter: `YYYY-MM-DD` that exists. */
export const DateParam = z
  .string()
  // A malformed date is one problem: the calendar check runs only on the YYYY-MM-DD form.
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD', abort: true })
  .refine(isCalendarDate, 'is not a real calendar date')
  .meta({ format: 'date', examples: ['2025-06-01'] });

/**
 * The search filters, with their meaning, ranges and defaults. `GET /api/reviews/search` and the
 * MCP tool `search_reviews` both validate with these fields, so they accept and mean the same.
 */
export const searchFields = {
  rating: z
    .number()
    .int()
    .min(1)
    .max(5)
    .optional()
    .describe('Only reviews with exactly this star rating (integer 1-5).'),
  min_rating: z
    .number()
    .min(1)
    .max(5)
    .optional()
    .describe('Only reviews rated at least this many stars (1-5, inclusive; may be fractional).'),
  max_rating: z
    .number()
    .min(1)
    .max(5)
    .optional()
    .describe('Only reviews rated at most this many stars (1-5, inclusive; fractional allowed).'),
  since: DateParam.optional().describe(
    'Only reviews dated on or after this local date (YYYY-MM-DD).',
  ),
  until: DateParam.optional().describe(
    'Only reviews dated on or before this local date (YYYY-MM-DD).',
  ),
  query: z
    .string()
    .min(1)
    .max(QUERY_MAX_LENGTH)
    .refine((s) => !CONTROL_CHARS.test(s), 'must not contain control characters')
    .optional()
    .describe('Case-insensitive substring of the review title or text.'),
  mentions_technician: z
    .string()
    .trim()
    .min(1)
    .max(120)
    // Parsed to the lookup form, so equal filters have one cache key.
    .transform(normalizeName)
    .optional()
    .describe(
      'Only reviews that mention this staff member: full name, or a first name unique on the roster; case-insensitive.',
    ),
  mentions_service: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .transform((id) => id.toLowerCase())
    .optional()
    .describe(
      "Only reviews that mention this service id from the business's catalogue; case-insensitive.",
    ),
  aspect: z
    .enum(ASPECT_IDS, {
      error: `must be one of the aspect ids of /insights.json: ${ASPECT_IDS.join(', ')}`,
    })
    .optional()
    .describe('Only reviews about this aspect, as /insights.json analyses them.'),
  polarity: z
    .enum(REVIEW_POLARITIES, { error: `must be one of ${REVIEW_POLARITIES.join(', ')}` })
    .optional()
    .describe("The review's opinion on aspect (alone: on any), as /insights.json counts it."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_LIMIT_MAX)
    .default(SEARCH_LIMIT_DEFAULT)
    .describe(
      `Maximum number of reviews returned (1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}).`,
    ),
};

/**
 * The one date-range rule of every input with `since` and `until` (search over HTTP and MCP, the
 * rating summary): both inclusive, and `since` must not come after `until`.
 */
export function checkDateRange(
  value: { since?: string | undefined; until?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const { since, until } = value;
  // Only between two real dates: an impossible date is its own one issue, never also `since`'s.
  if (
    since !== undefined &&
    until !== undefined &&
    isCalendarDate(since) &&
    isCalendarDate(until) &&
    since > until
  ) {
    ctx.addIssue({ code: 'custom', path: ['since'], message: 'must not be after until' });
  }
}

/**
 * The range rules of the search filters (over HTTP, MCP and the pages): the date range
 * (`checkDateRange`), and `max_rating` not below `min_rating`.
 */
export function checkSearchRanges(
  value: {
    since?: string | undefined;
    until?: string | undefined;
    min_rating?: number | undefined;
    max_rating?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  checkDateRange(value, ctx);
  const { min_rating: min, max_rating: max } = value;
  // Only between two valid ratings: one out of range is its own one issue.
  const valid = (n: number | undefined): n is number => typeof n === 'number' && n >= 1 && n <= 5;
  if (valid(min) && valid(max) && max < min) {
    ctx.addIssue({ code: 'custom', path: ['max_rating'], message: 'must not be below min_rating' });
  }
}

/** The validated search filters (typed values, as MCP sends them). */
export const SearchFilters = z.strictObject(searchFields).superRefine(checkSearchRanges);
export type SearchFilters = z.output<typeof SearchFilters>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

const INTEGER_RE = /^-?(0|[1-9]\d*)$/;
const NUMBER_RE = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * Parses a query string against a strict object schema. Numbers must be written plainly (`4`,
 * `3.5`), every parameter at most once; unknown parameters are errors. Issues name the parameter.
 * `numeric` says which parameters are numbers (the rest are strings).
 */
export function parseQueryParams<T>(
  params: URLSearchParams,
  schema: z.ZodType<T>,
  numeric: Readonly<Record<string, 'integer' | 'number'>>,
): ParseResult<T> {
  const issues: Issue[] = [];
  // No prototype: a parameter named `__proto__` must be a key like any other (assigned to `{}`,
  // it would vanish and the unknown parameter pass).
  const raw: Dict<unknown> = dict();
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) {
      issues.push({
        path: [key.slice(0, 100)],
        code: 'duplicate_parameter',
        message: 'must be given at most once',
      });
      continue;
    }
    const value = values[0]!;
    const kind = own(numeric, key);
    if (kind === undefined) {
      raw[key] = value;
    } else if ((kind === 'integer' ? INTEGER_RE : NUMBER_RE).test(value)) {
      raw[key] = Number(value);
    } else {
      issues.push({
        path: [key],
        code: 'invalid_type',
        message: `must be ${kind === 'integer' ? 'an integer' : 'a number'}`,
      });
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) issues.push(...toIssues(parsed.error));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: parsed.data! };
}

/** Parses search filters from a query string (see `parseQueryParams`). */
export function parseSearchParams(params: URLSearchParams): ParseResult<SearchFilters> {
  return parseQueryParams(params, SearchFilters, {
    rating: 'integer',
    min_rating: 'number',
    max_rating: 'number',
    limit: 'integer',
  });
}

export const SINCE_LIMIT_MAX = 1000;

/**
 * The optional paging parameters of `GET /api/reviews/since/{date}`: without them the whole result
 * comes in one response, as the contract has it.
 */
export const SinceQuery = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1)
    .max(SINCE_LIMIT_MAX)
    .optional()
    .describe(
      `Page size (1-${SINCE_LIMIT_MAX}). Without it, every review dated on or after the date comes at once.`,
    ),
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('`nextCursor` of the previous page, to get the next one (with `limit`).'),
});
export type SinceQuery = z.output<typeof SinceQuery>;
