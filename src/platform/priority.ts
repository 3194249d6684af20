import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The niceness of background work (the build worker's thread, an import): on a machine with few
 * cores the event loop, at the default 0, then wins a core whenever both want one, so a rebuild or
 * an import costs requests less. Only Linux gives each thread its own niceness; elsewhere this is
 * a no-op.
 */
export const BACKGROUND_NICENESS = 10;

/** The calling thread's kernel id (Linux: `/proc/thread-self` is `<pid>/task/<tid>`), or null. */
export function currentThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** The niceness of one thread of this process (Linux), or null when it cannot be read. */
export function threadNiceness(tid: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), in parentheses: nice is the 19th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const nice = Number(fields[16]);
    return Number.isInteger(nice) ? nice : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the priority of the calling thread (the build worker's) to `niceness`; threads it starts
 * later inherit it. Returns the thread's id, or null where threads have no niceness of their own
 * or it could not be set (a failure only costs the event loop some contention).
 */
export function lowerThreadPriority(niceness = BACKGROUND_NICENESS): number | null {
  const tid = currentThreadId();
  if (tid === null) return null;
  try {
    setPriority(tid, niceness);
    return tid;
  } catch {
    return null;
  }
}

/**
 * Lowers the priority of every thread of this process (a command that runs beside the service,
 * such as an import): on Linux a niceness belongs to a thread, and the runtime's threads are
 * started before any code runs. Threads started later inherit it from the main thread.
 */
export function lowerProcessPriority(niceness = BACKGROUND_NICENESS): void {
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
