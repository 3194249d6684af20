import type { Polarity } from '../analyzer.js';
import type { AspectInsight, Evidence, EvidenceByPolarity, Insights } from '../schema.js';
import { proportionalEvidence } from './evidence.js';
import type { PreparedReview } from './prepare.js';
import type { TopicInsight } from './topics.js';
import { FLAG_PRESSURE, FLAG_QUOTE } from './themes.js';
import { ASPECT_EVIDENCE_MIN_CONFIDENCE, combine, sentenceCandidate, Tally } from './tally.js';

type Faq = Insights['faq'][number];

const MIN_BASIS = 3;

/** Quotes an answer shows at most. */
const FAQ_QUOTES = 4;

type Counts = { positive: number; negative: number; neutral: number; mixed: number };

/**
 * An answer's quotes in proportion to its counts: a mixed review speaks both ways, so it weighs
 * half on each side.
 */
function answerEvidence(pools: EvidenceByPolarity, t: Counts): Evidence[] {
  return proportionalEvidence(
    pools,
    {
      positive: t.positive + t.mixed / 2,
      negative: t.negative + t.mixed / 2,
      neutral: t.neutral,
    },
    FAQ_QUOTES,
  );
}

const pct = (k: number, n: number) => `${Math.round((k / n) * 100)}%`;

function answerFrom(
  subject: string,
  t: { positive: number; negative: number; neutral: number; mixed: number },
  detail = '',
): string {
  const n = t.positive + t.negative + t.neutral + t.mixed;
  if (n < MIN_BASIS) return `Too few reviews mention ${subject} to tell (${n}).`;
  return `${n} reviews mention ${subject}: ${pct(t.positive, n)} positively, ${pct(t.negative, n)} negatively${t.mixed ? `, ${pct(t.mixed, n)} both` : ''}.${detail}`;
}

function fromTally(id: string, question: string, subject: string, tally: Tally, detail = ''): Faq {
  const s = tally.sentiment();
  return {
    id,
    question,
    answer: answerFrom(subject, s, detail),
    basis: {
      reviews: tally.mentions,
      positive: s.positive,
      negative: s.negative,
      neutral: s.neutral,
      mixed: s.mixed,
    },
    evidence: answerEvidence(tally.evidence(FAQ_QUOTES), s),
  };
}

/** Sentences of one aspect that also match `re`, tallied per review. */
function aspectSubset(prepared: readonly PreparedReview[], aspect: string, flag: number): Tally {
  const tally = new Tally(ASPECT_EVIDENCE_MIN_CONFIDENCE);
  for (const p of prepared) {
    const polarities: Polarity[] = [];
    for (const s of p.sentences) {
      const a = s.aspects.find((x) => x.category === aspect);
      if (!a || !(s.flags & flag)) continue;
      polarities.push(a.polarity);
      tally.offer(sentenceCandidate(p, s, a.polarity, a.confidence));
    }
    if (polarities.length) tally.add(combine(polarities));
  }
  return tally;
}

/** Durations customers report in wait-time sentences, in minutes, ascending. */
function reportedWaits(prepared: readonly PreparedReview[]): number[] {
  const out: number[] = [];
  for (const p of prepared) {
    for (const s of p.sentences) {
      if (s.minutes.length && s.aspects.some((a) => a.category === 'wait-time'))
        out.push(...s.minutes);
    }
  }
  return out.sort((a, b) => a - b);
}

/** The first of each list, then the second of each, and so on. */
function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++)
    for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

function combineTopics(
  topics: readonly TopicInsight[],
  ids: string[],
): {
  tally: Pick<Tally, 'positive' | 'negative' | 'neutral' | 'mixed'>;
  evidence: Evidence[];
  mentions: number;
} {
  const chosen = topics.filter((t) => ids.includes(t.id));
  const sum = (k: 'positive' | 'negative' | 'neutral' | 'mixed') =>
    chosen.reduce((a, t) => a + t[k], 0);
  const tally = {
    positive: sum('positive'),
    negative: sum('negative'),
    neutral: sum('neutral'),
    mixed: sum('mixed'),
  };
  const pool = (k: 'positive' | 'negative' | 'neutral') =>
    interleave(chosen.map((t) => t.evidence[k]));
  return {
    tally,
    evidence: answerEvidence(
      { positive: pool('positive'), negative: pool('negative'), neutral: pool('neutral') },
      tally,
    ),
    mentions: chosen.reduce((a, t) => a + t.mentions, 0),
  };
}

function fromTopics(
  id: string,
  question: string,
  subject: string,
  topics: readonly TopicInsight[],
  ids: string[],
): Faq {
  const { tally, evidence } = combineTopics(topics, ids);
  const n = tally.positive + tally.negative + tally.neutral + tally.mixed;
  return {
    id,
    question,
    answer: answerFrom(subject, tally),
    basis: { reviews: n, ...tally },
    evidence,
  };
}

/** An answer from the counts and quotes of one aspect (none when no review mentions it). */
function fromAspect(
  aspects: readonly AspectInsight[],
  id: string,
  aspectId: string,
  question: string,
  subject: string,
  detail = '',
): Faq {
  const a = aspects.find((x) => x.id === aspectId);
  const basis = a
    ? {
        reviews: a.mentions,
        positive: a.positive,
        negative: a.negative,
        neutral: a.neutral,
        mixed: a.mixed,
      }
    : { reviews: 0, positive: 0, negative: 0, neutral: 0, mixed: 0 };
  return {
    id,
    question,
    answer: answerFrom(subject, basis, detail),
    basis,
    evidence: a ? answerEvidence(a.evidence, basis) : [],
  };
}

/** The sentence on the durations customers state, when there are enough of them ('' if not). */
function waitDetail(prepared: readonly PreparedReview[]): string {
  const waits = reportedWaits(prepared);
  const median = waits.length ? waits[Math.floor((waits.length - 1) / 2)]! : null;
  return median !== null && waits.length >= MIN_BASIS
    ? ` Where customers state a duration (${waits.length} times), the median is ${median >= 60 ? `${Math.round((median / 60) * 10) / 10} hours` : `${median} minutes`}.`
    : '';
}

/**
 * Questions shoppers and owners ask, each answered only from counted reviews with quotes: loaner
 * cars and shuttles, wait times (with the durations customers report), prices against quotes,
 * appointments, warranty and recall work, sales pressure, follow-up.
 */
export function computeFaq(
  prepared: readonly PreparedReview[],
  aspects: readonly AspectInsight[],
  topics: readonly TopicInsight[],
): Faq[] {
  const fromAspectOf = (id: string, aspectId: string, q: string, subject: string, detail = '') =>
    fromAspect(aspects, id, aspectId, q, subject, detail);
  return [
    fromTopics(
      'loaner-cars',
      'Do they offer loaner cars or a shuttle while my car is in service?',
      'loaner cars or the shuttle',
      topics,
      ['loaner-car', 'shuttle'],
    ),
    fromAspectOf(
      'wait-times',
      'wait-time',
      'How long do service visits take?',
      'wait times',
      waitDetail(prepared),
    ),
    fromTally(
      'price-vs-quote',
      'Is the final price in line with the quote?',
      'prices compared with quotes or estimates',
      aspectSubset(prepared, 'price-value', FLAG_QUOTE),
      '',
    ),
    fromAspectOf(
      'appointments',
      'scheduling',
      'Is it easy to get an appointment?',
      'scheduling and appointments',
    ),
    fromTopics(
      'warranty-recalls',
      'Do they handle warranty and recall work well?',
      'warranty or recall work',
      topics,
      ['warranty', 'recall'],
    ),
    fromTally(
      'sales-pressure',
      'Is buying a car there low-pressure?',
      'sales pressure',
      aspectSubset(prepared, 'sales-experience', FLAG_PRESSURE),
      '',
    ),
    fromAspectOf(
      'follow-up',
      'follow-up',
      'Do they follow up after a visit?',
      'follow-up calls and updates',
    ),
  ];
}
