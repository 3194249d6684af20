import { createWriteStream } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Agent, buildConnector } from 'undici';
import {
  CALLBACK_REFUSED,
  createAddressPolicy,
  createHostVetter,
  systemResolver,
  type Resolver,
} from '../../websub/index.js';
import { isServiceError } from '../../platform/errors.js';
import { sourceFailed } from '../gbp/http.js';

/** The largest export read (bytes); a longer one fails the run. */
export const MAX_EXPORT_BYTES = 512 * 1024 * 1024;

/** Connect, headers and body timeouts of one fetch. */
const TIMEOUT_MS = 60_000;

/** What a conditional fetch found. */
export type Fetched =
  | { status: 'not-modified' }
  | { status: 'fetched'; etag: string | null; lastModified: string | null };

/** The ranges `SYNC_ALLOW_CIDRS` opens, as a `BlockList` to test an address against. */
function allowList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(
      address,
      prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix),
      type,
    );
  }
  return list;
}

/**
 * The outbound client of the watched export URLs, behind the WebSub hub's guard: every
 * connection goes to the one address vetted (loopback, private, link-local, metadata and other
 * special addresses refused unless `allowCidrs` opens them, no DNS rebinding), and plain `http`
 * only to an address `allowCidrs` names. Redirects are not followed. `resolve` is the system's
 * resolver unless a test gives one.
 */
export function guardedClient(allowCidrs: readonly string[], resolve: Resolver = systemResolver) {
  const vet = createHostVetter(createAddressPolicy(allowCidrs), resolve, 5_000);
  const allowed = allowList(allowCidrs);
  const base = buildConnector({ timeout: TIMEOUT_MS });
  const connect: buildConnector.connector = (opts, callback) => {
    vet(opts.hostname).then(
      (address) => {
        const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
        if (opts.protocol === 'http:' && !allowed.check(address, type)) {
          return callback(
            sourceFailed('http is refused unless the host lies in SYNC_ALLOW_CIDRS'),
            null,
          );
        }
        base({ ...opts, hostname: address }, callback);
      },
      (err: Error) => callback(err, null),
    );
  };
  const agent = new Agent({ connect, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  return {
    /** Fetches `url` into `path` unless it is unchanged since `since` (its ETag, its date). */
    async fetchTo(
      url: string,
      path: string,
      since: { etag: string | null; lastModified: string | null },
      signal: AbortSignal,
    ): Promise<Fetched> {
      const target = new URL(url);
      const headers: Record<string, string> = { 'user-agent': 'dealer-reviews (sync)' };
      if (since.etag !== null) headers['if-none-match'] = since.etag;
      if (since.lastModified !== null) headers['if-modified-since'] = since.lastModified;
      let res;
      try {
        res = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          headers,
          signal,
        });
      } catch (err) {
        if (isServiceError(err)) {
          const message = err.message.replace('the callback host', 'the export host');
          throw isServiceError(err, CALLBACK_REFUSED) ? sourceFailed(message) : err;
        }
        const code = (err as { code?: string }).code ?? (err as Error).message;
        throw sourceFailed(`${target.host} could not be reached (${code})`);
      }
      if (res.statusCode === 304) {
        await res.body.dump();
        return { status: 'not-modified' };
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw sourceFailed(`${target.host}${target.pathname} answered ${res.statusCode}`);
      }
      let size = 0;
      const limited = async function* (body: AsyncIterable<Buffer>) {
        for await (const chunk of body) {
          size += chunk.length;
          if (size > MAX_EXPORT_BYTES)
            throw sourceFailed(`the export is larger than ${MAX_EXPORT_BYTES} bytes`);
          yield chunk;
        }
      };
      await pipeline(res.body, limited, createWriteStream(path));
      const { etag, 'last-modified': lastModified } = res.headers;
      const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
      return { status: 'fetched', etag: text(etag), lastModified: text(lastModified) };
    },
    close: () => agent.close(),
  };
}

export type GuardedClient = ReturnType<typeof guardedClient>;
