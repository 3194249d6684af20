import type { Insights } from './schema.js';

type Row = (string | number | null)[];

function table(title: string, head: string[], rows: Row[]): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `${title}`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
    '',
  ].join('\n');
}

const pct = (k: number, n: number) => (n === 0 ? '-' : `${Math.round((k / n) * 100)}%`);
const score = (s: number | null) => (s === null ? null : s.toFixed(2));

/** The significant changes with both shares and the p-value before and after Holm's adjustment. */
function changesTable(changes: Insights['changes']): string {
  if (changes.length === 0) return 'No significant changes in the last 90 days.\n';
  return table(
    'Significant changes (last 90 days vs the 365 days before)',
    ['aspect', 'direction', 'complaints before', 'complaints now', 'p', 'p (Holm)'],
    changes.map((c) => [
      c.name,
      c.direction,
      `${Math.round(c.before.negativeShare * 100)}% of ${c.before.mentions}`,
      `${Math.round(c.recent.negativeShare * 100)}% of ${c.recent.mentions}`,
      c.test.pValue,
      c.test.adjustedPValue,
    ]),
  );
}

/** Renders the insights as plain-text tables for operators (`npm run insights`). */
export function renderReport(ins: Insights, businessName: string | null): string {
  const parts: string[] = [
    `Insights${businessName ? ` for ${businessName}` : ''}: ${ins.reviewCount} reviews (${ins.period.from ?? '-'} to ${ins.period.to ?? '-'}), data of ${ins.generatedAt}`,
    '',
    table(
      'Aspects',
      ['aspect', 'mentions', 'positive', 'negative', 'neutral', 'mixed', 'score', 'last 6 months'],
      ins.aspects.map((a) => [
        a.name,
        a.mentions,
        pct(a.positive, a.mentions),
        pct(a.negative, a.mentions),
        pct(a.neutral, a.mentions),
        pct(a.mixed, a.mentions),
        score(a.score),
        a.trend
          .slice(-6)
          .map((t) =>
            t.score === null ? '.' : t.score >= 0.33 ? '+' : t.score <= -0.33 ? '-' : '~',
          )
          .join(''),
      ]),
    ),
    table(
      'Staff (3 mentions or more)',
      ['name', 'role', 'mentions', 'avg stars', 'score'],
      ins.entities.technicians.map((t) => [
        t.name,
        t.role,
        t.mentions,
        t.averageRating,
        score(t.score),
      ]),
    ),
    table(
      'Services',
      ['service', 'mentions', 'avg stars', 'score'],
      ins.entities.services.map((s) => [s.name, s.mentions, s.averageRating, score(s.score)]),
    ),
    table(
      'Service areas',
      ['area', 'reviews', 'avg stars', 'positive', 'negative'],
      ins.entities.serviceAreas.map((a) => [
        a.name,
        a.mentions,
        a.averageRating,
        pct(a.positive, a.mentions),
        pct(a.negative, a.mentions),
      ]),
    ),
    table(
      'Topics',
      ['topic', 'mentions', 'last 90 days', 'score'],
      ins.topics.map((t) => [t.name, t.mentions, t.recentMentions, score(t.score)]),
    ),
    changesTable(ins.changes),
    'FAQ',
    ...ins.faq.map((f) => `  ${f.question}\n    ${f.answer}`),
    '',
    'Summary',
    `  ${ins.summary.text}`,
    '',
    `Owner responses: ${ins.ownerResponses.responded} of ${ins.ownerResponses.total}${ins.ownerResponses.medianResponseHours !== null ? `, median ${ins.ownerResponses.medianResponseHours} h` : ''}`,
    `Method: ${ins.method.model} ${ins.method.version}`,
    '',
  ];
  return parts.join('\n');
}
