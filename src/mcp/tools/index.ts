import { toIssues } from '../../domain/issues.js';
import { invalidParams } from '../internal/errors.js';
import { getBusiness } from './get-business.js';
import { getChanges } from './get-changes.js';
import { insightsTool } from './get-insights.js';
import { getReview } from './get-review.js';
import { listServices } from './list-services.js';
import { listStaff, listTechnicians } from './list-staff.js';
import { getRatingSummary } from './rating-summary.js';
import { getReviewsSince } from './reviews-since.js';
import { searchReviews } from './search-reviews.js';
import type { ToolDefinition } from './types.js';

/**
 * The server's tools, one file each (their shared schemas in schemas.ts, paging in paging.ts),
 * and the validation of a call's arguments.
 */

export type { ToolContext, ToolDefinition, ToolOutcome } from './types.js';

/** Every tool of the server, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  getBusiness,
  searchReviews,
  getReview,
  getReviewsSince,
  getRatingSummary,
  listStaff,
  listServices,
  insightsTool,
  listTechnicians,
  getChanges,
];

/** The name of every tool of the server. */
export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

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
