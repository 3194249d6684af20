import { dict, type Dict } from '../../platform/dict.js';
/**
 * Counts outgoing requests in flight, in all and per callback host, so that the hub never has
 * more than `total` requests open, nor more than `perHost` to one host: a slow or dead subscriber
 * can hold at most its host's share, never the others'.
 */
export class Slots {
  private inFlight = 0;
  private readonly byHost = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perHost: number,
  ) {}

  /** Requests that may start now. */
  free(): number {
    return this.total - this.inFlight;
  }

  /** Remaining capacity of each host that has requests in flight. */
  hostRemaining(): Dict<number> {
    const out: Dict<number> = dict();
    for (const [host, n] of this.byHost) out[host] = Math.max(0, this.perHost - n);
    return out;
  }

  take(host: string): void {
    this.inFlight++;
    this.byHost.set(host, (this.byHost.get(host) ?? 0) + 1);
  }

  give(host: string): void {
    this.inFlight--;
    const n = (this.byHost.get(host) ?? 1) - 1;
    if (n <= 0) this.byHost.delete(host);
    else this.byHost.set(host, n);
  }

  busy(): number {
    return this.inFlight;
  }
}
