import type { z } from 'zod';
import type { ServiceUrls } from '../../catalogue.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { TextBuilder } from '../text-copy.js';

/** The shape of a tool: its schemas, and what it runs over and returns. */

/**
 * What a tool returns: structured content (validated by its output schema) with the builder of its
 * text copy (a compact plain-text rendering at a cap on free texts, not a second JSON: the server
 * picks the richest that fits half the structured content's bytes; see docs/mcp.md), or a tool
 * error.
 */
export type ToolOutcome =
  { structured: Record<string, unknown>; text?: TextBuilder } | { error: string };

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
