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
