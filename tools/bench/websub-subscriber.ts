import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

/**
 * The subscriber side of the WebSub benchmark, run as its own process (`fork`): HTTPS servers on
 * the given loopback addresses and port 0, answering every POST with 204 and reporting to the
 * parent, every 100 ms and at the target, how many deliveries arrived, to how many distinct
 * callbacks (path and query), how many were a callback's second or later, and when the last did.
 */
async function main(): Promise<void> {
  const [certPath, keyPath, hosts, target] = process.argv.slice(2);
  const cert = readFileSync(certPath!);
  const key = readFileSync(keyPath!);
  const expected = Number(target);
  let count = 0;
  let lastAt = 0;
  let bytes = 0;
  const perCallback = new Map<string, number>();
  let duplicates = 0;
  const report = () =>
    process.send!({ count, distinct: perCallback.size, duplicates, lastAt, bytes });
  const ports: Record<string, number> = {};
  for (const host of hosts!.split(',')) {
    const server = createServer({ cert, key, keepAliveTimeout: 30_000 }, (req, res) => {
      let size = 0;
      req.on('data', (c: Buffer) => (size += c.length));
      req.on('end', () => {
        res.writeHead(req.method === 'POST' ? 204 : 404).end();
        if (req.method !== 'POST') return;
        count++;
        bytes += size;
        lastAt = Date.now();
        const callback = `${host}${req.url ?? ''}`;
        const seen = perCallback.get(callback) ?? 0;
        if (seen > 0) duplicates++;
        perCallback.set(callback, seen + 1);
        if (perCallback.size === expected) report();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    ports[host] = (server.address() as { port: number }).port;
  }
  process.send!({ ports });
  setInterval(report, 100).unref();
  process.on('disconnect', () => process.exit(0));
}

void main();
