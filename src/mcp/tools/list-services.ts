import { z } from 'zod';
import { listPage } from './paging.js';
import { listCursorField } from './schemas.js';
import type { ToolDefinition } from './types.js';

/** `list_services`: the service catalogue with mention counts, paged. */

export const listServices: ToolDefinition = {
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
