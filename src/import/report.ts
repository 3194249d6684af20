import type { ImportSummary } from './run.js';

const MAX_SHOWN = 50;

const fmt = (n: number): string => n.toLocaleString('en-US');

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

function rejectedLines(s: ImportSummary): string[] {
  if (s.rejected.length === 0) return [];
  const multi = s.rejected.some((r) => r.file !== undefined);
  const head = multi
    ? ['file', 'row', 'line', 'field', 'reason']
    : ['row', 'line', 'field', 'reason'];
  const body = s.rejected.slice(0, MAX_SHOWN).map((r) => {
    const cells = [String(r.row), r.line === undefined ? '' : String(r.line), r.field, r.reason];
    return multi ? [r.file ?? '', ...cells] : cells;
  });
  const out = [
    '',
    `Rejected rows (${fmt(s.rejected.length)}):`,
    ...table([head, ...body]).map((l) => `  ${l}`),
  ];
  if (s.rejected.length > MAX_SHOWN) {
    out.push(`  ... and ${fmt(s.rejected.length - MAX_SHOWN)} more (--json lists them all)`);
  }
  return out;
}

/**
 * The human summary of an import: a table of counts, then the rejected rows (the first 50) and
 * any warnings. `--json` prints the summary object instead.
 */
export function formatSummary(s: ImportSummary, path: string): string {
  const dryRun = s.dryRun;
  const title = dryRun
    ? `Dry run of ${path} (${s.format}): nothing was written`
    : s.committed
      ? `Imported ${path} (${s.format})`
      : `Nothing imported from ${path} (${s.format})`;
  const counts: [string, string][] = [
    ['inserted', fmt(s.inserted)],
    ['updated', fmt(s.updated)],
    ['unchanged', fmt(s.unchanged)],
    ['rejected', fmt(s.rejected.length)],
    ['pruned', fmt(s.pruned)],
  ];
  if (s.rederived > 0) counts.push(['re-derived', fmt(s.rederived)]);
  if (s.hidden > 0) counts.push(['kept hidden', fmt(s.hidden)]);
  if (s.businessChanged) counts.push(['business', 'updated']);
  const version = s.version === null ? 'unchanged' : String(s.version);
  if (!dryRun) counts.push(['data version', version]);
  const lines = [title, ...table(counts.map(([k, v]) => [k, v.padStart(10)])).map((l) => `  ${l}`)];
  lines.push(...rejectedLines(s));
  if (s.warnings.length > 0) lines.push('', 'Warnings:', ...s.warnings.map((w) => `  - ${w}`));
  return `${lines.join('\n')}\n`;
}
