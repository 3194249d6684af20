/**
 * Collects items and writes them together: every item added before the next turn of the event
 * loop goes into one `flush` call (one store transaction instead of one per item). `add` resolves
 * once its item's flush has finished, and rejects if it failed.
 */
export function createBatcher<T>(flush: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let items: T[] = [];
  let waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  let scheduled = false;
  const run = (): void => {
    scheduled = false;
    const batch = items;
    const settle = waiters;
    items = [];
    waiters = [];
    flush(batch).then(
      () => settle.forEach((w) => w.resolve()),
      (err: unknown) => settle.forEach((w) => w.reject(err)),
    );
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      items.push(item);
      waiters.push({ resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(run);
      }
    });
}
