/**
 * The served data version: its number, its age, its reviews (set when a version goes live, from
 * the snapshot the publisher swapped in), and how long each version took to build.
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Builder, Published, Snapshot } from '../../snapshot/index.js';
import { gauge } from './declare.js';

/** From a small store (a second) to 100,000 reviews on a slow machine (a minute or two). */
const BUILD_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

export interface VersionMetrics {
  /** Sets the gauges from the current version, and again from each one that goes live. */
  watch(published: Published): () => void;
  /** The builder, its builds timed (from the request to the built version in hand). */
  timed<B extends Builder>(builder: B): B;
}

export function versionMetrics(registry: Registry): VersionMetrics {
  const registers = [registry];
  const version = gauge(
    registry,
    'dealer_reviews_data_version',
    'The data version this instance serves.',
  );
  const reviews = gauge(
    registry,
    'dealer_reviews_reviews',
    'Reviews in the data version this instance serves.',
  );
  let committedAt = Number.NaN;
  new Gauge({
    name: 'dealer_reviews_data_age_seconds',
    help: 'Seconds since the commit of the data version this instance serves (its Last-Modified).',
    registers,
    collect() {
      // The one value read at scrape: the clock, against a time set when the version went live.
      if (Number.isFinite(committedAt)) this.set((Date.now() - committedAt) / 1000);
    },
  });
  const builds = new Histogram({
    name: 'dealer_reviews_version_build_seconds',
    help: 'Seconds from asking the build worker for a data version to having it built.',
    buckets: BUILD_BUCKETS,
    registers,
  });
  const served = (snapshot: Snapshot): void => {
    version.set(snapshot.state.version);
    reviews.set(snapshot.index.size);
    committedAt = Date.parse(snapshot.state.changedAt);
  };
  return {
    watch(published) {
      served(published.current());
      return published.onChange((event) => served(event.snapshot));
    },
    timed(builder) {
      const build: Builder['build'] = async (request) => {
        const end = builds.startTimer();
        const built = await builder.build(request);
        end();
        return built;
      };
      return new Proxy(builder, {
        get: (target, name, receiver) =>
          name === 'build' ? build : (Reflect.get(target, name, receiver) as unknown),
      });
    },
  };
}
