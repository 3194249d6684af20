/**
 * The soak's report (see soak.ts): a table per kind of request, a table of the run's measures
 * (the import, the new version, the service's memory and event loop, per 10 s window), and the
 * first errors and warnings.
 */
import { table } from './harness.js';
import type { Tally } from './soak-load.js';

/** The soak's settings (see the top of soak.ts). */
export interface SoakSettings {
  seconds: number;
  connections: number;
  importAt: number;
  count: number;
}

/** One 10 s window of the load: requests, errors, event-loop delay max, RSS max. */
export interface LoadWindow {
  requests: number;
  errors: number;
  loopMaxMs: number;
  rssMB: number;
}

/** The import's run: when it started and ended (`performance.now()`), and its exit code. */
export interface ImportRun {
  startedAt: number;
  endedAt: number;
  code: number | null;
}

/** What the soak measured, for its report. */
export interface SoakFigures {
  settings: SoakSettings;
  /** When the load started (`performance.now()`), and its wall time in seconds. */
  started: number;
  wall: number;
  tallies: ReadonlyMap<string, Tally>;
  importRun: ImportRun;
  /** When the import's version was first served (`performance.now()`), and its reviews. */
  newVersion: { at: number; reviews: number } | null;
  /** The service's RSS (MB): at the start, its peak, at the end of the load, 10 s later. */
  rss: { start: number; peak: number; end: number; settled: number };
  windows: LoadWindow[];
  /** The service's log lines. */
  log: readonly string[];
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`);

/** A row of the requests table: how many, the rate over `wall` seconds, errors, latencies. */
function requestRow(request: string, times: number[], errors: number, wall: number) {
  return {
    request,
    requests: times.length.toLocaleString('en-US'),
    'req/s': Math.round(times.length / wall).toLocaleString('en-US'),
    errors,
    p50: ms(percentile(times, 0.5)),
    p99: ms(percentile(times, 0.99)),
    max: ms(times.at(-1) ?? 0),
  };
}

/** The requests table: a row per kind of request, then all of them. */
function requestsTable(tallies: ReadonlyMap<string, Tally>, wall: number): string {
  const all = [...tallies.values()];
  const rows = [...tallies].map(([name, t]) =>
    requestRow(
      name,
      [...t.times].sort((a, b) => a - b),
      t.errors,
      wall,
    ),
  );
  const allTimes = all.flatMap((t) => t.times).sort((a, b) => a - b);
  const errors = all.reduce((n, t) => n + t.errors, 0);
  rows.push(requestRow('**all**', allTimes, errors, wall));
  return table(rows);
}

/** The measures table: totals, the import and its new version, and the service over the run. */
function measuresTable(f: SoakFigures, busy: number, logged: number): string {
  const all = [...f.tallies.values()];
  const total = all.reduce((n, t) => n + t.times.length, 0);
  const errors = all.reduce((n, t) => n + t.errors, 0);
  const tooMany = all.reduce((n, t) => n + t.tooMany, 0);
  const at = (t: number) => `${((t - f.started) / 1000).toFixed(1)} s`;
  const { importRun, newVersion, rss, windows } = f;
  return table([
    {
      measure: 'requests / errors / refusals by design (429, 503)',
      value: `${total} / ${errors} / ${tooMany}`,
    },
    { measure: 'wall time of the load', value: `${f.wall.toFixed(1)} s` },
    {
      measure: 'import: started / committed (exit code)',
      value: `${at(importRun.startedAt)} / ${importRun.endedAt ? at(importRun.endedAt) : 'after the load'} (${importRun.code})`,
    },
    {
      measure: 'new version first served (healthz)',
      value:
        newVersion === null
          ? 'not within 60 s'
          : `${at(newVersion.at)}, ${newVersion.reviews} reviews`,
    },
    {
      measure: 'commit to the new version served',
      value:
        newVersion === null || !importRun.endedAt
          ? 'not measured'
          : `${((newVersion.at - importRun.endedAt) / 1000).toFixed(1)} s`,
    },
    {
      measure: 'service RSS: start / peak / end of load / 10 s later',
      value: `${rss.start} MB / ${rss.peak} MB / ${rss.end} MB / ${rss.settled} MB`,
    },
    {
      measure: 'service event-loop delay max, per 10 s window',
      value: windows.map((w) => ms(w.loopMaxMs)).join(', '),
    },
    { measure: 'requests per 10 s window', value: windows.map((w) => w.requests).join(', ') },
    { measure: 'errors per 10 s window', value: windows.map((w) => w.errors).join(', ') },
    {
      measure: 'service RSS max per 10 s window',
      value: windows.map((w) => `${w.rssMB} MB`).join(', '),
    },
    {
      measure: 'SQLITE_BUSY / warn-or-worse lines in the service log',
      value: `${busy} / ${logged}`,
    },
  ]);
}

/**
 * The soak's report, in Markdown: its heading, the two tables, then the first errors of each kind
 * of request and the first warnings of the service's log, if any.
 */
export function soakReport(f: SoakFigures): string {
  const { seconds, connections, count, importAt } = f.settings;
  const busy = f.log.filter((l) => l.includes('SQLITE_BUSY')).length;
  const logged = f.log.filter((l) => /"level":(40|50|60)/.test(l));
  const out = [
    `### Soak: ${seconds} s at ${connections.toLocaleString('en-US')} connections, ${count.toLocaleString('en-US')}-review import at ${importAt} s\n`,
    requestsTable(f.tallies, f.wall),
    '',
    measuresTable(f, busy, logged.length),
    '',
  ];
  const samples = [...f.tallies.values()].flatMap((t) => t.samples);
  if (samples.length > 0)
    out.push('Errors (first of each kind):', '', ...samples.map((s) => `- ${s}`), '');
  if (logged.length > 0)
    out.push(
      'Service log (warn or worse, first 5):',
      '',
      ...logged.slice(0, 5).map((l) => `- ${l.slice(0, 300)}`),
      '',
    );
  return out.join('\n');
}
