import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The niceness of batch work beside the service (an import): on a machine with few cores the
 * service, at the default 0, then wins a core whenever both want one.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the priority of every thread of this process (a command that runs beside the service,
 * such as an import): on Linux a niceness belongs to a thread, and the runtime's threads are
 * started before any code runs. Threads started later inherit it from the main thread. Only ever
 * lowers: a process already at `niceness` or below it (the launcher's `nice -n 10`, or an
 * operator's `nice -n 19`) is left as it is.
 */
export function lowerProcessPriority(niceness = BACKGROUND_NICENESS): void {
  try {
    if (getPriority() >= niceness) return;
  } catch {
    // Unknown: set it.
  }
  if (process.platform !== 'linux') {
    try {
      setPriority(niceness);
    } catch {
      // Not allowed here: the command runs at the default priority.
    }
    return;
  }
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      setPriority(Number(tid), niceness);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
