import { z } from 'zod';
import { decodeChangeCursor } from './change-cursor.js';

export const CHANGES_LIMIT_MAX = 1000;
export const CHANGES_LIMIT_DEFAULT = 100;

/** A cursor of the change feed (`nextCursor`): any store's, well formed. */
export const ChangeCursorParam = z
  .string()
  .max(64)
  .refine((s) => decodeChangeCursor(s) !== null, { message: 'is not a cursor of the change feed' })
  .describe(
    '`nextCursor` of the previous answer: the changes after it. Without it, the feed starts at its beginning.',
  );

/** The query of `GET /api/reviews/changes` (and the arguments of the MCP tool `get_changes`). */
export const ChangesQuery = z.strictObject({
  after: ChangeCursorParam.optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(CHANGES_LIMIT_MAX)
    .default(CHANGES_LIMIT_DEFAULT)
    .describe(`Changes per answer (1-${CHANGES_LIMIT_MAX}, default ${CHANGES_LIMIT_DEFAULT}).`),
});
export type ChangesQuery = z.output<typeof ChangesQuery>;
