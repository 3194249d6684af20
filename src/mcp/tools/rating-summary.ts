import { z } from 'zod';
import { fingerprint } from '../../reviews/cursor.js';
import { checkDateRange, searchFields } from '../../reviews/search-schema.js';
import { firstBefore, firstOnOrBefore } from '../../reviews/search.js';
import { rangeAggregates } from '../../reviews/views.js';
import { DEFAULT_RESULT_TOKENS, fitPage, jsonBytes, structuredBudget } from '../agent.js';
import { groupCursor } from '../internal/cursor.js';
import { afterGroup, filtersOf, PAGE_OVERHEAD_BYTES } from './paging.js';
import { AggregateRatingRef, cursorField } from './schemas.js';
import type { ToolDefinition } from './types.js';

/** `get_rating_summary`: the star distribution overall and by month, department or source. */

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

export const getRatingSummary: ToolDefinition = {
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
