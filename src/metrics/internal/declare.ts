/** The service's metrics are declared in one registry each: a counter or gauge in a line. */
import { Counter, Gauge, type Registry } from 'prom-client';

/** A counter in `registry`, with its labels (none by default). */
export function counter<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/** A gauge in `registry`, with its labels (none by default). */
export function gauge<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [registry] });
}

/**
 * A counter of one label whose values are known (outcomes, kinds), each at 0 from the start, so
 * that rates and alerts see every series before its first event.
 */
export function knownValuesCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  label: L,
  values: readonly string[],
): Counter<L> {
  const made = counter(registry, name, help, [label]);
  for (const value of values) made.labels(value).inc(0);
  return made;
}
