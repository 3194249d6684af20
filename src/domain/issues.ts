import type { z } from 'zod';
import type { Issue } from '../platform/errors.js';

export type { Issue };

/** Converts zod issues into the public `issues` items, one per offending parameter. */
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
    } else {
      out.push({
        path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        code: issue.code,
        message: issue.message,
      });
    }
  }
  return out;
}
