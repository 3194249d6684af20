import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainServer } from './drain.js';

let server: Server | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

/** A server whose `/slow` answers once `finish` is called, and whose other paths answer at once. */
async function start(): Promise<{ port: number; finish: () => void; started: Promise<void> }> {
  const held: ServerResponse[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>((r) => (markStarted = r));
  server = createServer((req, res) => {
    if (req.url === '/slow') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first half, ');
      held.push(res);
      markStarted();
    } else res.end('ok');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return { port, finish: () => held.forEach((r) => r.end('second half')), started };
}

/** GET over a keep-alive agent-less connection; resolves with the whole body. */
function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, headers: { Connection: 'keep-alive' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('drainServer', () => {
  it('lets the request under way finish, closes idle connections, and takes no new one', async () => {
    const s = await start();
    await get(s.port, '/'); // leaves an idle keep-alive connection behind
    const slow = get(s.port, '/slow');
    await s.started;
    const drained = drainServer(server!, 30_000);
    await expect(get(s.port, '/')).rejects.toThrow();
    s.finish();
    expect(await slow).toBe('first half, second half');
    expect(await drained).toBe('drained');
  });

  it('cuts what is still open when the grace is over', async () => {
    const s = await start();
    const slow = get(s.port, '/slow');
    await s.started;
    expect(await drainServer(server!, 200)).toBe('cut');
    await expect(slow).rejects.toThrow();
  });
});
