/**
 * The bare reference of the hot-path bench: a `node:http` server that answers each path with the
 * status, headers and body the service sent for it (recorded by `hotpath.ts` in the JSON file
 * named by HOTPATH_ANSWERS), and does nothing else. It listens on 127.0.0.1:PORT and says
 * `ready` on stdout.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { RecordedAnswer } from './hotpath.js';

const recorded = JSON.parse(readFileSync(process.env.HOTPATH_ANSWERS!, 'utf8')) as Record<
  string,
  RecordedAnswer
>;
const answers = new Map(
  Object.entries(recorded).map(([path, a]) => [
    path,
    {
      status: a.status,
      headers: Object.fromEntries(a.headers),
      body: a.body === '' ? undefined : Buffer.from(a.body, 'base64'),
    },
  ]),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
