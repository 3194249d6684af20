/**
 * `dealer_reviews_store_errors_total{kind}`: every failed call of the service's store, by the
 * store's own classification of the fault (`storeErrorKind`), whichever surface made it.
 */
import type { Registry } from 'prom-client';
import { STORE_ERROR_KINDS, storeErrorKind, type ServiceStore } from '../../store/index.js';
import { knownValuesCounter } from './declare.js';

/** The capabilities whose calls are counted, besides the store's own methods. */
const CAPABILITIES = ['sessions', 'websub', 'rates'] as const;

/**
 * An object whose methods count their failures: each method is wrapped once, on first use (a
 * call then costs one extra function call, and one `catch` on its promise).
 */
function counted<T extends object>(target: T, fail: (err: unknown) => void): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, name) {
      const value = Reflect.get(object, name) as unknown;
      if (typeof value !== 'function' || name === 'close' || name === 'watch') return value;
      let wrapper = wrapped.get(name);
      if (!wrapper) {
        const fn = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]): unknown => {
          let result: unknown;
          try {
            result = fn.apply(object, args);
          } catch (err) {
            fail(err);
            throw err;
          }
          if (result instanceof Promise) result.catch(fail);
          return result;
        };
        wrapped.set(name, wrapper);
      }
      return wrapper;
    },
  });
}

/** The counter, and the service's store with every call counted when it fails. */
export function storeErrorMetrics(registry: Registry): <S extends ServiceStore>(store: S) => S {
  const errors = knownValuesCounter(
    registry,
    'dealer_reviews_store_errors_total',
    "Failed calls of this instance's store, by kind (busy, unreachable, conflict, deadline, other).",
    'kind',
    STORE_ERROR_KINDS,
  );
  const fail = (err: unknown): void => errors.labels(storeErrorKind(err)).inc();
  return (store) => {
    const capabilities = new Map<PropertyKey, unknown>(
      CAPABILITIES.map((name) => [name, counted(store[name], fail)]),
    );
    const top = counted(store, fail);
    return new Proxy(top, {
      get: (object, name, receiver) =>
        capabilities.get(name) ?? (Reflect.get(object, name, receiver) as unknown),
    });
  };
}
