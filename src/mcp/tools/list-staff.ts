import { z } from 'zod';
import { StaffRole } from '../../domain/business.js';
import type { Snapshot } from '../../snapshot/types.js';
import { insightsOf } from './insights-sections.js';
import { listPage } from './paging.js';
import { listCursorField } from './schemas.js';
import type { ToolDefinition } from './types.js';

/**
 * `list_staff` (and `list_technicians`, its first name): the roster with mention counts and the
 * insights' sentiment, paged.
 */

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
  cursor: listCursorField,
});

export function listStaff(name: string, key: 'staff' | 'technicians'): ToolDefinition {
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
