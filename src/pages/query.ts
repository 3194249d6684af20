import { z } from 'zod';
import {
  checkSearchRanges,
  parseQueryParams,
  searchFields,
  type ParseResult,
} from '../reviews/search-schema.js';
import { numericParams } from '../http/query.js';

/** Reviews per page of `GET /`. */
export const PAGE_SIZE = 20;
/** The deepest page number accepted (200,000 reviews at 20 a page); dates reach the rest. */
export const PAGE_MAX = 10_000;

const { limit: _limit, ...filterFields } = searchFields;

/**
 * The query of `GET /`: the search filters of `/api/reviews/search` (the same fields, so the same
 * meaning and the same 400s) without `limit`, plus the page number.
 */
export const PageQuery = z
  .strictObject({
    ...filterFields,
    page: z
      .number()
      .int()
      .min(1)
      .max(PAGE_MAX)
      .optional()
      .describe(`Page of ${PAGE_SIZE} reviews, newest first (1-${PAGE_MAX}, default 1).`),
  })
  .superRefine(checkSearchRanges);
export type PageQuery = z.output<typeof PageQuery>;

/**
 * The filter names of the page query, in the order links write them: the search's own fields
 * (`searchFields`) but `limit`, so that a filter added to the search is a filter of the pages.
 */
export const FILTER_NAMES = Object.keys(filterFields) as FilterName[];
export type FilterName = keyof typeof filterFields;

// Which parameters are numbers is read from the schema (src/http/query.ts), for the API too.
export { numericParams };

const NUMERIC = numericParams(PageQuery.shape);

/** Campaign parameters that links shared on social networks carry; pages ignore them. */
const TRACKING = /^(utm_[a-z_]{1,40}|fbclid|gclid|msclkid)$/;

/**
 * Parses the query string of `GET /` with the search rules. Two things differ, both because the
 * query comes from an HTML form or a shared link: a parameter left empty (a blank form field)
 * counts as absent, and campaign parameters (`utm_*`, `fbclid`, `gclid`, `msclkid`) are ignored.
 */
export function parsePageQuery(query: string): ParseResult<PageQuery> {
  const params = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(query)) {
    if (value === '' || TRACKING.test(key)) continue;
    params.append(key, value);
  }
  return parseQueryParams(params, PageQuery, NUMERIC);
}

/** True when no filter is set (page 1 of everything, or a later page of everything). */
export function hasFilters(q: PageQuery): boolean {
  return FILTER_NAMES.some((name) => q[name] !== undefined);
}
