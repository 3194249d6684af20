import type { z } from 'zod';
import type { Issue } from '../platform/errors.js';

export type { Issue };

/**
 * Zod's own bound of an integer (`.int()` is a safe integer): `limit: 1e300` fails it and the
 * field's stated bound at once. The field's bound is the one a client needs; the safe-integer one
 * would state a second, meaningless range in the message.
 */
function safeIntegerBound(issue: z.ZodError['issues'][number]): boolean {
  return (
    (issue.code === 'too_big' && issue.maximum === Number.MAX_SAFE_INTEGER) ||
    (issue.code === 'too_small' && issue.minimum === Number.MIN_SAFE_INTEGER)
  );
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * Converts zod issues into the public `issues` items, one per offending parameter, each bound
 * stated once: a safe-integer bound is left out beside the field's own, and said in words alone.
 */
export function toIssues(error: z.ZodError): Issue[] {
  const out: Issue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          path: [key.slice(0, 100)],
          code: issue.code,
          message: 'is not a known parameter',
        });
      }
      continue;
    }
    let message = issue.message;
    if (safeIntegerBound(issue)) {
      const other = error.issues.some((i) => i !== issue && samePath(i.path, issue.path));
      if (other) continue;
      message = issue.code === 'too_big' ? 'is too large' : 'is too small';
    }
    out.push({
      path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      code: issue.code,
      message,
    });
  }
  return out;
}
