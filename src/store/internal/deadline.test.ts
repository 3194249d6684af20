import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../platform/errors.js';
import { DEADLINE } from '../errors.js';
import { withDeadline } from './deadline.js';

const isDeadline = (err: unknown): boolean => isServiceError(err, DEADLINE);

describe('withDeadline', () => {
  it('gives up on work that never settles', async () => {
    const never = new Promise<string>(() => undefined);
    await expect(withDeadline(never, 20, () => undefined)).rejects.toSatisfy(isDeadline);
  });

  it('settles as the work does before the deadline', async () => {
    await expect(withDeadline(Promise.resolve('store'), 60_000, () => undefined)).resolves.toBe(
      'store',
    );
    const failure = new Error('cannot open');
    await expect(withDeadline(Promise.reject(failure), 60_000, () => undefined)).rejects.toBe(
      failure,
    );
  });

  it('hands a value that arrives after the deadline to onLate', async () => {
    let arrive!: (value: string) => void;
    const work = new Promise<string>((resolve) => (arrive = resolve));
    const late: string[] = [];
    await expect(withDeadline(work, 20, (v) => late.push(v))).rejects.toSatisfy(isDeadline);
    arrive('late store');
    await work;
    expect(late).toEqual(['late store']);
  });
});
