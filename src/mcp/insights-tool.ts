import { z } from 'zod';
import { DOCUMENTS } from '../catalogue.js';
import { Insights } from '../insights/index.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ToolDefinition } from './tools.js';

const SECTIONS = [
  'aspects',
  'entities',
  'topics',
  'faq',
  'summary',
  'changes',
  'ownerResponses',
  'method',
] as const;

const parsed = new WeakMap<Snapshot, Record<string, unknown>>();

function insightsOf(snapshot: Snapshot): Record<string, unknown> | null {
  let doc = parsed.get(snapshot);
  if (!doc) {
    const rep = snapshot.representations.get(DOCUMENTS.insights.path);
    if (!rep) return null;
    doc = JSON.parse(rep.body.toString('utf8')) as Record<string, unknown>;
    parsed.set(snapshot, doc);
  }
  return doc;
}

/** The MCP tool over `/insights.json`: the whole document or one section. */
export const insightsTool: ToolDefinition = {
  name: 'get_insights',
  title: 'Get insights',
  description:
    'Aspect-based sentiment insights computed from every review: what customers praise and criticise (aspects with counts, score, monthly trend and verbatim evidence quotes with review ids), staff, services and service areas, recurring topics, an FAQ, significant changes in the last 90 days, a summary, owner response rate. Ask for one section to keep the answer short.',
  input: z.strictObject({
    section: z
      .enum(SECTIONS)
      .optional()
      .describe('Only this section (plus reviewCount and generatedAt).'),
  }),
  output: Insights.partial(),
  run(args, snapshot) {
    const doc = insightsOf(snapshot);
    if (!doc) return { error: 'Insights are not available.' };
    const section = args.section as (typeof SECTIONS)[number] | undefined;
    if (!section) return { structured: doc };
    return {
      structured: {
        reviewCount: doc.reviewCount,
        generatedAt: doc.generatedAt,
        [section]: doc[section],
      },
    };
  },
};
