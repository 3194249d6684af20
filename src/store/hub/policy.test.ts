import { describe, expect, it } from 'vitest';
import { admitsIntent, dropsSubscription, needsHostLoad } from './policy.js';

describe('the hub policy', () => {
  it('queues a new subscription only while its callback host holds fewer than the cap', () => {
    for (const mode of ['subscribe', 'unsubscribe'] as const) {
      expect(admitsIntent({ mode, renewal: false, hostLoad: 0 }, 3)).toBe(true);
      expect(admitsIntent({ mode, renewal: false, hostLoad: 2 }, 3)).toBe(true);
      expect(admitsIntent({ mode, renewal: false, hostLoad: 3 }, 3)).toBe(false);
      expect(admitsIntent({ mode, renewal: false, hostLoad: 9 }, 3)).toBe(false);
      expect(admitsIntent({ mode, renewal: false, hostLoad: 0 }, 0)).toBe(false);
    }
  });

  it('always queues a renewal and a denial, whatever the load', () => {
    expect(admitsIntent({ mode: 'subscribe', renewal: true, hostLoad: 9 }, 3)).toBe(true);
    expect(admitsIntent({ mode: 'unsubscribe', renewal: true, hostLoad: 9 }, 3)).toBe(true);
    expect(admitsIntent({ mode: 'denied', renewal: false, hostLoad: 9 }, 3)).toBe(true);
    expect(admitsIntent({ mode: 'denied', renewal: false, hostLoad: 0 }, 0)).toBe(true);
  });

  it('counts the host load only when it can refuse', () => {
    expect(needsHostLoad({ mode: 'subscribe', renewal: false })).toBe(true);
    expect(needsHostLoad({ mode: 'unsubscribe', renewal: false })).toBe(true);
    expect(needsHostLoad({ mode: 'subscribe', renewal: true })).toBe(false);
    expect(needsHostLoad({ mode: 'denied', renewal: false })).toBe(false);
  });

  it('drops a subscription at the failure limit, not before', () => {
    expect(dropsSubscription(1, 3)).toBe(false);
    expect(dropsSubscription(2, 3)).toBe(false);
    expect(dropsSubscription(3, 3)).toBe(true);
    expect(dropsSubscription(4, 3)).toBe(true);
    expect(dropsSubscription(1, 1)).toBe(true);
  });
});
