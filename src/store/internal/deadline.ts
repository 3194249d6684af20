import { deadlineExceeded } from '../errors.js';

/**
 * Settles as `work` does, or rejects with a `deadline` `ServiceError` once `ms` have passed. A value that
 * `work` produces after the deadline is handed to `onLate` (to release what it holds); a late
 * failure is dropped. The timer is cleared as soon as either settles.
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  onLate: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(deadlineExceeded(ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        if (expired) onLate(value);
        else resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(err);
      },
    );
  });
}
