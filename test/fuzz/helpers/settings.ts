import { appendFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';

/**
 * How the fuzz suite runs.
 *
 * - In `npm run test:slow` nothing is set: every boundary runs its bounded number of runs from one
 *   fixed seed, so a failure reproduces run for run.
 * - `npm run fuzz` (tools/fuzz/run.ts) sets `FUZZ_RUNS` (10,000 unless given), a random
 *   `FUZZ_SEED` (printed, unless given) and `FUZZ_REPORT`, a file where each boundary appends its
 *   figures as one JSON line.
 * - `FUZZ_MINUTES` (optional, in `npm run fuzz`) stops a boundary after that many minutes of
 *   runs; its figures then say how many it really ran (`interrupted`), and it is not a failure.
 * - `FUZZ_PATH` (with `FUZZ_SEED`) replays the shrunk counterexample that fast-check reported;
 *   `FUZZ_DUMP` names a file that receives the whole counterexample.
 */
export const FIXED_SEED = 20_261_125;

function intFromEnv(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new Error(`${name} must be an integer`);
  return Number(value);
}

export const SEED = intFromEnv('FUZZ_SEED') ?? FIXED_SEED;
const RUNS = intFromEnv('FUZZ_RUNS');
const MINUTES = intFromEnv('FUZZ_MINUTES');

/** True in `npm run fuzz` (a run count was given): no time bound on a boundary. */
export const LONG_RUN = RUNS !== undefined;

/**
 * The runs of a boundary: its bounded count in `npm run test:slow`, FUZZ_RUNS in `npm run fuzz`.
 */
export function runsOf(inNpmTest: number): number {
  return RUNS ?? inNpmTest;
}

/**
 * Vitest's timeout for a boundary's test: generous in `npm run test:slow` (it only turns a hang into
 * a failure; no figure of speed is asserted), none in practice for the long run.
 */
export function timeoutOf(inNpmTest: number): number {
  return LONG_RUN ? 24 * 3_600_000 : Math.max(60_000, inNpmTest);
}

/** Outcomes seen by the boundary being checked (statuses, exit codes): how far inputs got. */
const outcomes = new Map<string, number>();

/** Counts one outcome of a run (a status, an exit code) for the figures. */
export function noteOutcome(label: string | number): void {
  outcomes.set(String(label), (outcomes.get(String(label)) ?? 0) + 1);
}

export interface BoundaryFigures {
  boundary: string;
  /** Runs asked for, and runs that passed (fewer when interrupted or failed). */
  asked: number;
  runs: number;
  /** Stopped by FUZZ_MINUTES before the runs asked for. */
  interrupted: boolean;
  ms: number;
  /** Outcomes of every execution, shrinking included (statuses, exit codes). */
  outcomes: Record<string, number>;
  failed: boolean;
  seed: number;
  /** fast-check's replay path of the shrunk counterexample, when the property failed. */
  path?: string;
  counterexample?: string;
}

/**
 * Checks `property` with the suite's seed and the boundary's run count, records the figures
 * (`FUZZ_REPORT`) and throws fast-check's report (seed, path, shrunk counterexample) on failure.
 */
export async function checkBoundary<Ts>(
  boundary: string,
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  inNpmTest: number,
): Promise<void> {
  const numRuns = runsOf(inNpmTest);
  const path = process.env.FUZZ_PATH || undefined;
  outcomes.clear();
  const started = performance.now();
  const details = await fc.check(property as fc.IAsyncProperty<Ts>, {
    seed: SEED,
    numRuns,
    ...(path ? { path } : {}),
    ...(MINUTES !== undefined && !path
      ? { plugins: [fc.interruptAfterTimeLimit(MINUTES * 60_000)] }
      : {}),
  });
  const figures: BoundaryFigures = {
    boundary,
    asked: numRuns,
    runs: details.numRuns,
    interrupted: details.interrupted,
    ms: Math.round(performance.now() - started),
    outcomes: Object.fromEntries([...outcomes].sort()),
    failed: details.failed,
    seed: SEED,
    ...(details.failed
      ? {
          path: details.counterexamplePath ?? '',
          counterexample: fc.stringify(details.counterexample).slice(0, 2000),
        }
      : {}),
  };
  // The whole counterexample (the report cuts it short), for replaying it by hand.
  if (details.failed && process.env.FUZZ_DUMP)
    writeFileSync(process.env.FUZZ_DUMP, fc.stringify(details.counterexample));
  if (process.env.FUZZ_REPORT)
    appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(figures)}\n`);
  if (details.failed) {
    const cause = details.errorInstance;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new Error(
      `${boundary}: replay with FUZZ_SEED=${SEED} FUZZ_PATH=${figures.path}\n${fc.defaultReportMessage(details) ?? ''}\n\nThe property failed with: ${why}`,
      { cause },
    );
  }
}
