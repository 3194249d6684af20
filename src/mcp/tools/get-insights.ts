import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Insights } from '../../insights/index.js';
import { DEFAULT_RESULT_TOKENS, fitPage, jsonBytes, structuredBudget } from '../agent.js';
import { closestNames } from '../internal/closest.js';
import { foreignCursor } from '../internal/cursor.js';
import { invalidArgument } from '../internal/errors.js';
import { fitStrings } from '../internal/fit.js';
import {
  insightsOf,
  listOf,
  overview,
  overviewText,
  SECTIONS,
  whole,
} from './insights-sections.js';
import type { ToolDefinition } from './types.js';
import { dict, type Dict } from '../../platform/dict.js';

/**
 * `entities` (kept for old clients): the staff, services and service areas without their quotes,
 * as many as fit the budget, in that order; when some are left out, `cut` says so and counts them
 * (the staff, services and serviceAreas sections page through all).
 */
function entitiesPage(
  doc: Insights,
  head: Record<string, unknown>,
  budget: number,
): Record<string, unknown> {
  const lists = whole(doc, 'entities') as Record<string, unknown[]>;
  const flat = Object.entries(lists).flatMap(([kind, items]) =>
    items.map((item) => ({ kind, item })),
  );
  const { taken, more } = fitPage(
    flat,
    Number.MAX_SAFE_INTEGER,
    budget - jsonBytes(head) - 400,
    (e) => jsonBytes(e.item),
    (e, maxBytes) => ({ ...e, item: fitInsight(e.item, maxBytes) }),
  );
  const entities: Dict<unknown[]> = dict(
    Object.fromEntries(
      Object.keys(lists).map((kind) => [
        kind,
        taken.filter((e) => e.kind === kind).map((e) => e.item),
      ]),
    ),
  );
  const counts = Object.entries(lists)
    .map(([kind, items]) => `${entities[kind]!.length} of ${items.length} ${kind}`)
    .join(', ');
  return {
    ...head,
    entities,
    ...(more
      ? {
          cut: `Only the first entries fit (${counts}): the staff, services and serviceAreas sections page through all.`,
        }
      : {}),
  };
}

function pageCursor(section: string, id: string | undefined, offset: number, version: string) {
  return Buffer.from(JSON.stringify([section, id ?? null, offset, version])).toString('base64url');
}

function readCursor(cursor: string, section: string, id: string | undefined, version: string) {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(v) &&
      v[0] === section &&
      v[1] === (id ?? null) &&
      Number.isInteger(v[2]) &&
      (v[2] as number) >= 0 &&
      v[3] === version
    )
      return v[2] as number;
  } catch {
    // falls through
  }
  throw foreignCursor('another section or id, or insights that changed since');
}

const LIST_SECTIONS = 'aspects, staff, services, serviceAreas, topics, faq';

const Input = z.strictObject({
  section: z
    .enum(SECTIONS)
    .optional()
    .describe(
      'Without it: an overview (summary, aspects with scores and counts, significant changes, top staff, owner responses). With it: that section in full (verbatim quotes with review ids), paged.',
    ),
  id: z
    .string()
    .min(1)
    .max(120)
    .optional()
    .describe(
      'With a list section: only this item (an aspect, topic, FAQ or service id; a staff member by full name or a first name only one person has).',
    ),
  trend: z
    .boolean()
    .default(false)
    .describe(
      "With section aspects: add each aspect's monthly trend (about 5 KB an aspect). Default false.",
    ),
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('`nextCursor` of the previous page of a section.'),
});

/** The arguments that do not apply to the section asked for (none, a whole one), refused. */
function checkApplies({ section, id, cursor, trend }: z.output<typeof Input>, list: boolean): void {
  if (trend && section !== 'aspects')
    throw invalidArgument('trend', 'adds the monthly trends of section aspects: give that section');
  if (!section) {
    if (id !== undefined)
      throw invalidArgument(
        'id',
        `picks an item of a list section (${LIST_SECTIONS}): give the section`,
      );
    if (cursor !== undefined)
      throw invalidArgument('cursor', 'continues a section: give the section it came from');
  } else if (!list) {
    if (id !== undefined)
      throw invalidArgument(
        'id',
        `picks an item of a list section (${LIST_SECTIONS}); ${section} is not one`,
      );
    if (cursor !== undefined)
      throw invalidArgument('cursor', `${section} is not paged: it comes whole`);
  }
}

/** An aspect without its monthly trend (what most questions need: counts, score, quotes). */
const withoutTrend = ({ trend: _t, ...rest }: { trend?: unknown }) => rest;

/** The free texts of the insights that may be cut to fit (quotes can be long sentences). */
const FREE_TEXT = new Set(['statement', 'answer', 'question', 'text', 'name', 'summary', 'role']);

/** An insights result within `maxBytes`: quotes are cut first (the review id has the whole). */
function fitInsight<T>(value: T, maxBytes: number): T {
  return fitStrings(value, maxBytes, {
    weight: (key) => (key === 'quote' ? 1 : FREE_TEXT.has(key) ? 8 : 0),
    mark: (shown, total) => `… [cut at ${shown} of ${total} characters]`,
  });
}

/** Lower case, no accents: "Hector" finds "Héctor". */
function folded(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The staff entries an `id` names, as search_reviews reads a name: the full name or a first name
 * that only one person has, case- and accent-insensitive; a shared first name or an unknown name
 * is an error naming the candidates.
 */
function staffNamed<T extends { name: string }>(people: readonly T[], id: string): T[] | string {
  const wanted = folded(id);
  const full = people.filter((p) => folded(p.name) === wanted);
  if (full.length > 0) return full;
  const first = people.filter((p) => folded(p.name).split(' ')[0] === wanted);
  if (first.length === 1) return first;
  if (first.length > 1)
    return `"${id.slice(0, 120)}" matches several staff members (${first.map((p) => p.name).join(', ')}); use the full name.`;
  const near = closestNames(
    id,
    people.map((p) => p.name),
  );
  return `No staff member "${id.slice(0, 120)}" in the insights.${near.length ? ` Closest names: ${near.join(', ')}.` : ''} list_staff lists everyone.`;
}

/** The MCP tool over `/insights.json`: an overview by default, each section on request. */
export const insightsTool: ToolDefinition = {
  name: 'get_insights',
  title: 'Get insights',
  description:
    'Aspect-based sentiment insights computed from every review. By default an overview: a summary, each aspect (price, wait time, communication, quality of work, ...) with mention counts and a score from -1 to 1, significant changes of the last 90 days, the most mentioned staff and the owner response rate. Ask for a section for more: aspects (with verbatim quotes with review ids, and the monthly trend of each aspect when `trend` is true), staff, services, serviceAreas, topics, faq, summary, changes, ownerResponses, method; with a list section (aspects, staff, services, serviceAreas, topics, faq), `id` picks one item (a staff member by full name or unique first name); long sections are paged with nextCursor.',
  input: Input,
  output: z.record(z.string(), z.unknown()),
  run(args, { snapshot }) {
    const doc = insightsOf(snapshot);
    if (!doc) return { error: 'The insights are being computed; try again in a few seconds.' };
    const { section, id, cursor, trend } = args as z.output<typeof Input>;
    const budget = structuredBudget(DEFAULT_RESULT_TOKENS);
    const head = { reviewCount: doc.reviewCount, generatedAt: doc.generatedAt };
    const list = section ? listOf(doc, section) : null;
    checkApplies(args as z.output<typeof Input>, list !== null);
    if (!section) {
      const structured = fitInsight(overview(doc), budget);
      return { structured, text: overviewText(structured) };
    }
    if (!list) {
      if (section === 'entities') return { structured: entitiesPage(doc, head, budget) };
      return { structured: fitInsight({ ...head, [section]: whole(doc, section) }, budget) };
    }
    let items = list.items;
    if (id !== undefined) {
      if (section === 'staff') {
        const found = staffNamed(items as { name: string }[], id);
        if (typeof found === 'string') return { error: found };
        items = found;
      } else {
        const wanted = id.toLowerCase();
        items = items.filter((i) => list.key(i as never).toLowerCase() === wanted);
        if (items.length === 0) {
          const known = list.items.map((i) => list.key(i as never));
          return {
            error: `No ${section} item "${id.slice(0, 120)}". Known: ${known.slice(0, 40).join(', ')}.`,
          };
        }
      }
    }
    if (section === 'aspects' && !trend) items = (items as { trend?: unknown }[]).map(withoutTrend);
    const version = createHash('sha1').update(doc.generatedAt).digest('base64url').slice(0, 8);
    const offset = cursor === undefined ? 0 : readCursor(cursor, section, id, version);
    const { taken, more } = fitPage(
      items.slice(offset),
      Number.MAX_SAFE_INTEGER,
      budget - jsonBytes(head) - 300,
      jsonBytes,
      fitInsight,
    );
    const structured = {
      ...head,
      [section]: taken,
      total: items.length,
      nextCursor: more ? pageCursor(section, id, offset + taken.length, version) : null,
    };
    return { structured };
  },
};
