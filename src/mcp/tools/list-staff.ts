import { z } from 'zod';
import { StaffRole } from '../../domain/business.js';
import type { Snapshot } from '../../snapshot/types.js';
import { insightsOf } from './insights-sections.js';
import { listPage } from './paging.js';
import { listCursorField } from './schemas.js';
import type { ToolDefinition } from './types.js';

/**
 * `list_staff`: the roster with mention counts and the insights' sentiment, paged; and
 * `list_technicians` (the tool's first name, kept for old clients): the technicians of it.
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

/** The output of a list of staff under `key`. */
const staffOutput = (key: string) =>
  z.object({
    [key]: z.array(StaffEntry),
    total: z.number().int(),
    nextCursor: z.string().nullable(),
  });

/** A page of the roster's entries that `keep` takes, under `key`. */
function staffPage(
  key: string,
  args: Record<string, unknown>,
  snapshot: Snapshot,
  keep: (role: string | null) => boolean,
) {
  const list = snapshot.views.staff.filter((s) => keep(s.role));
  const page = listPage(withSentiment(snapshot, list), args, snapshot);
  return { structured: { [key]: page.taken, total: page.total, nextCursor: page.nextCursor } };
}

export const listStaff: ToolDefinition = {
  name: 'list_staff',
  title: 'List staff',
  description:
    'Everyone on the roster (technicians, service advisors, sales, ...) and the people the review sources tagged, with how many reviews mention each, the average rating of those reviews and how many mentions praise or criticise them (positive, negative, score from the insights), most mentioned first. Filter by role. Use a name with search_reviews.mentions_technician. A very long list is paged (`total`, `nextCursor`).',
  input: staffInput,
  output: staffOutput('staff'),
  run: (args, { snapshot }) =>
    staffPage('staff', args, snapshot, (role) => !args.role || role === args.role),
};

/**
 * The tool's first name, kept for old clients. It used to list every role; it now lists what its
 * name says (the staff whose role is `technician`), like `list_staff` with that role.
 */
export const listTechnicians: ToolDefinition = {
  name: 'list_technicians',
  title: 'List technicians',
  description:
    'The technicians only (role technician), as list_staff gives them with that role, under `technicians`. list_staff lists every role.',
  input: z.strictObject({ cursor: listCursorField }),
  output: staffOutput('technicians'),
  run: (args, { snapshot }) =>
    staffPage('technicians', args, snapshot, (role) => role === 'technician'),
};
