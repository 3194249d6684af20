/**
 * The last step of a data version's life on the service's thread: `superseded` → `released`.
 * The previous version's buffers (the whole dataset, its codings) are freed only when this thread
 * collects garbage, which a quiet heap seldom does: collect once, a second after each new data
 * version (and after a long response of an old version ends), when most requests that held the
 * old version are done. The collection is concurrent, but its last pause grows when the cores are
 * busy (50 ms at 100,000 reviews while the build worker collected its own heap), so a follow-up
 * document of the same version (the insights, which free little) starts none. The builder is then
 * told (`Builder.released`): the build worker makes the new version's follow-up work only then.
 */
import type { Logger } from '../logger.js';
import { collectGarbage } from '../platform/rpc.js';
import { COLLECT_AFTER_VERSION_MS } from '../platform/version-policy.js';
import type { Builder } from './lifecycle.js';
import type { Published } from './types.js';

export interface Releases {
  /** A holder of an older version let it go (a long response ended): collect a second later. */
  soon(): void;
  stop(): void;
}

/** Releases each superseded version of `published`, and tells `builder` once it is done. */
export function startReleases(
  published: Published,
  builder: Pick<Builder, 'released'>,
  logger: Logger,
): Releases {
  let collect: NodeJS.Timeout | null = null;
  const soon = (): void => {
    if (collect) clearTimeout(collect);
    collect = setTimeout(() => {
      collect = null;
      const started = performance.now();
      const { version } = published.current().state;
      void collectGarbage().then(() => {
        logger.debug({ ms: Math.round(performance.now() - started) }, 'collected garbage');
        builder.released?.(version);
      });
    }, COLLECT_AFTER_VERSION_MS);
    collect.unref();
  };
  let collectedFor = published.current().state.version;
  published.onChange(({ version }) => {
    if (version === collectedFor) return;
    collectedFor = version;
    soon();
  });
  return {
    soon,
    stop() {
      if (collect) clearTimeout(collect);
    },
  };
}
