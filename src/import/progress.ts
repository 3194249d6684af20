import type { ImportProgress } from './run.js';

/** Where progress goes: a terminal (redrawn bar) or a log (a line now and then). */
export interface ProgressSink {
  update(p: ImportProgress): void;
  done(): void;
}

const WIDTH = 24;

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  return `${m}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** One progress line: count, rate, percentage and ETA. */
export function progressLine(p: ImportProgress, elapsedMs: number, bar: boolean): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? p.rows / seconds : 0;
  const eta = p.fraction > 0 ? (seconds * (1 - p.fraction)) / p.fraction : Number.NaN;
  const pct = `${Math.floor(p.fraction * 100)}%`.padStart(4);
  const filled = Math.round(p.fraction * WIDTH);
  const drawn = bar ? `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ` : '';
  return `${drawn}${pct}  ${fmt(p.rows)} rows  ${fmt(rate)} rows/s  ETA ${formatDuration(eta)}`;
}

/**
 * A progress reporter on a stream (stderr): on a terminal a bar redrawn in place at most ten
 * times a second; elsewhere (with `--progress`) a plain line for the first batch and then at
 * most once a second. No dependency.
 */
export function createProgress(
  stream: NodeJS.WriteStream,
  mode: 'bar' | 'lines',
  now: () => number = Date.now,
): ProgressSink {
  const started = now();
  let last = -Infinity;
  let drawn = false;
  return {
    update(p) {
      const t = now();
      if (t - last < (mode === 'bar' ? 100 : 1000)) return;
      last = t;
      const line = progressLine(p, t - started, mode === 'bar');
      if (mode === 'bar') {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
      } else stream.write(`import: ${line}\n`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
