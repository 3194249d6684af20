import type { GetPromptResult } from '@modelcontextprotocol/server';
import { BYTES_PER_TOKEN, clip, MAX_RESULT_TOKENS, TEXT_CUT, wholeReviewAt } from './agent.js';
import { invalidParams } from './internal/errors.js';
import { stringBytes } from './internal/fit.js';
import { unknownServiceText, unknownStaffText } from './tools/did-you-mean.js';
import type { Review } from '../domain/review.js';
import { firstOnOrBefore } from '../reviews/search.js';
import { normalizeName } from '../reviews/search-index.js';
import type { Snapshot } from '../snapshot/types.js';
import { own } from '../platform/dict.js';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** Values offered by `completion/complete` for an argument. */
  complete?(argument: string, snapshot: Snapshot): string[];
  get(args: Record<string, string>, snapshot: Snapshot): GetPromptResult;
}

const MAX_REVIEWS = 60;
/** A review's text in a prompt keeps at most this many characters (the whole is at `review://`). */
const PROMPT_TEXT_CAP = 800;
/**
 * The reviews of a prompt take at most these bytes, so that the whole prompt stays within the
 * tools' largest budget (25,000 tokens) whatever the import accepted; the instructions around
 * them are a few hundred bytes.
 */
const PROMPT_REVIEW_BYTES = Math.floor(MAX_RESULT_TOKENS * BYTES_PER_TOKEN * 0.9);

/** How many reviews are at these positions, and the newest `MAX_REVIEWS` of them. */
function reviewsAt(
  snapshot: Snapshot,
  positions: Uint32Array | undefined,
): { length: number; newest: Review[] } {
  const list = positions ?? new Uint32Array(0);
  return {
    length: list.length,
    newest: [...list.subarray(0, MAX_REVIEWS)].map((p) => snapshot.review(p)),
  };
}

function compact(r: Review): string {
  const who = clip(r.mentions.technicians.map((t) => t.name).join(', '), 200);
  const text = clip(r.reviewBody ?? '(rating only)', PROMPT_TEXT_CAP);
  const whole = text.endsWith(TEXT_CUT) ? ` (whole: ${wholeReviewAt(r.id)})` : '';
  return `- [${r.date}] ${r.reviewRating.ratingValue}/5${r.department ? ` (${r.department})` : ''}${who ? ` staff: ${who}` : ''} id=${r.id}: ${text}${whole}`;
}

/**
 * The reviews of a prompt, one line each, newest first, as many as fit `PROMPT_REVIEW_BYTES`;
 * a last line says how many more there were.
 */
function reviewLines(reviews: readonly Review[]): string {
  const lines: string[] = [];
  let bytes = 0;
  for (const r of reviews) {
    const line = compact(r);
    bytes += stringBytes(line) + 1;
    if (bytes > PROMPT_REVIEW_BYTES) break;
    lines.push(line);
  }
  const left = reviews.length - lines.length;
  if (left > 0) lines.push(`(${left} more not shown here: use search_reviews)`);
  return lines.join('\n');
}

function message(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

function required(args: Record<string, string>, name: string): string {
  const value = own(args, name)?.trim();
  if (!value) throw invalidParams(`Missing required argument: ${name}`);
  return value;
}

const recentSummary: PromptDefinition = {
  name: 'summarize_recent_reviews',
  title: 'Summarize recent reviews',
  description:
    'Summarise what customers said in the last N days: praise, complaints, named staff, and changes.',
  arguments: [{ name: 'days', description: 'How many days back (default 30).', required: false }],
  get(args, snapshot) {
    const days = Number(args.days ?? '30');
    if (!Number.isInteger(days) || days < 1 || days > 3650) {
      throw invalidParams('Invalid argument days: must be an integer from 1 to 3650');
    }
    const { index } = snapshot;
    const newest = index.size > 0 ? index.date(0) : undefined;
    const cutoff = newest
      ? new Date(Date.parse(newest) - days * 86_400_000).toISOString().slice(0, 10)
      : '';
    // Reviews dated after the cutoff: the newest positions, up to the first on or before it.
    const count = newest ? firstOnOrBefore(index, cutoff) : 0;
    const recent = { length: count };
    const shown = Array.from({ length: Math.min(count, MAX_REVIEWS) }, (_, p) =>
      snapshot.review(p),
    );
    const name = snapshot.business?.name ?? 'the business';
    return {
      description: `Reviews of ${name} from the last ${days} days`,
      messages: [
        message(
          `Summarise the customer reviews of ${name} from the last ${days} days (${recent.length} reviews; the ${shown.length} newest are below). ` +
            'Group praise and complaints by theme, name staff members customers mention, quote short phrases with the review id, and say what the data does not show. ' +
            'Use the search_reviews tool for more.\n\n' +
            reviewLines(shown),
        ),
      ],
    };
  },
};

/**
 * The one staff member a prompt's argument names (the full name, or a first name only one person
 * has), or -32602 saying who it could be, as the tools do: the people who share the first name, or
 * the closest names.
 */
function staffMember(snapshot: Snapshot, name: string) {
  const wanted = normalizeName(name);
  const full = snapshot.views.staff.filter((s) => normalizeName(s.name) === wanted);
  const first = snapshot.views.staff.filter((s) => normalizeName(s.name).split(' ')[0] === wanted);
  const staff = full.length > 0 ? full : first;
  if (staff.length === 1) return staff[0]!;
  const why =
    staff.length > 1
      ? `"${name.slice(0, 120)}" matches several staff members (${staff.map((s) => s.name).join(', ')}); use the full name.`
      : unknownStaffText(snapshot, name);
  throw invalidParams(`Invalid argument technician: ${why}`);
}

const technicianFeedback: PromptDefinition = {
  name: 'technician_feedback',
  title: 'Feedback about one staff member',
  description: 'What customers say about one technician or other staff member, with evidence.',
  arguments: [
    {
      name: 'technician',
      description: 'Full name (or unique first name) of the staff member.',
      required: true,
    },
  ],
  complete: (argument, snapshot) =>
    argument === 'technician' ? snapshot.views.staff.map((s) => s.name) : [],
  get(args, snapshot) {
    const person = staffMember(snapshot, required(args, 'technician'));
    const reviews = reviewsAt(snapshot, snapshot.index.staff(normalizeName(person.name)));
    return {
      description: `Feedback about ${person.name}`,
      messages: [
        message(
          `Write balanced feedback for ${person.name}${person.role ? ` (${person.role})` : ''} from the ${reviews.length} reviews that mention them (average ${person.averageRating ?? 'n/a'}/5; the ${Math.min(reviews.length, MAX_REVIEWS)} newest are below). ` +
            'List strengths and things to improve, each with a short quote and the review id. Do not invent anything the reviews do not say.\n\n' +
            reviewLines(reviews.newest),
        ),
      ],
    };
  },
};

const serviceFeedback: PromptDefinition = {
  name: 'service_feedback',
  title: 'Feedback about one service',
  description: 'What customers say about one service from the catalogue (oil change, brakes, ...).',
  arguments: [{ name: 'service', description: 'Service id from list_services.', required: true }],
  complete: (argument, snapshot) =>
    argument === 'service' ? snapshot.views.services.map((s) => s.id) : [],
  get(args, snapshot) {
    const asked = required(args, 'service');
    const service = snapshot.views.services.find((s) => s.id === asked.toLowerCase());
    if (!service)
      throw invalidParams(`Invalid argument service: ${unknownServiceText(snapshot, asked)}`);
    const reviews = reviewsAt(snapshot, snapshot.index.service(service.id.toLowerCase()));
    return {
      description: `Feedback about ${service.name}`,
      messages: [
        message(
          `Summarise what customers say about ${service.name} (${reviews.length} reviews mention it; the ${Math.min(reviews.length, MAX_REVIEWS)} newest are below): price, speed, quality and communication, with short quotes and review ids.\n\n` +
            reviewLines(reviews.newest),
        ),
      ],
    };
  },
};

export const PROMPTS: readonly PromptDefinition[] = [
  recentSummary,
  technicianFeedback,
  serviceFeedback,
];
