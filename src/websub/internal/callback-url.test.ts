import { describe, expect, it } from 'vitest';
import { withHubParams } from './callback-url.js';

describe('hub parameters on a callback URL', () => {
  it('keeps the callback query byte for byte and appends after it', () => {
    expect(withHubParams('https://a.example/cb', { 'hub.mode': 'subscribe' })).toBe(
      'https://a.example/cb?hub.mode=subscribe',
    );
    expect(withHubParams('https://a.example/cb?x=a%20b&y', { 'hub.mode': 'denied' })).toBe(
      'https://a.example/cb?x=a%20b&y&hub.mode=denied',
    );
    expect(withHubParams('https://a.example/cb?', { a: '1' })).toBe('https://a.example/cb?a=1');
    expect(withHubParams('https://a.example/cb?x=1&', { a: '1' })).toBe(
      'https://a.example/cb?x=1&a=1',
    );
    expect(
      withHubParams('https://a.example/cb', { 'hub.topic': 'https://r.example/feed.xml?x=1&y=2' }),
    ).toBe('https://a.example/cb?hub.topic=https%3A%2F%2Fr.example%2Ffeed.xml%3Fx%3D1%26y%3D2');
  });
});
