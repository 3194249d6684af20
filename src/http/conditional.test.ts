import { describe, expect, it } from 'vitest';
import { evaluatePreconditions, notModifiedHeaders, type Validators } from './conditional.js';

const v: Validators = {
  etag: '"abc"',
  equivalent: ['"abc"', '"abc-gzip"', '"abc-br"'],
  lastModifiedMs: Date.parse('Tue, 01 Oct 2024 10:00:00 GMT') + 500,
};
const at = (s: string) =>
  new Date(Date.parse('Tue, 01 Oct 2024 10:00:00 GMT') + s.length * 0).toUTCString();

describe('evaluatePreconditions (RFC 9110 section 13.2.2)', () => {
  it('proceeds without preconditions', () => expect(evaluatePreconditions({}, v)).toBe('proceed'));
  it('answers 304 for a matching or weak or listed tag and for *', () => {
    for (const inm of ['"abc"', 'W/"abc"', '"x", "abc-br"', '*']) {
      expect(evaluatePreconditions({ 'if-none-match': inm }, v), inm).toBe('not-modified');
    }
  });
  it('ignores If-Modified-Since when If-None-Match is present', () => {
    expect(
      evaluatePreconditions({ 'if-none-match': '"old"', 'if-modified-since': at('') }, v),
    ).toBe('proceed');
  });
  it('compares Last-Modified at one-second precision', () => {
    expect(evaluatePreconditions({ 'if-modified-since': at('') }, v)).toBe('not-modified');
    expect(evaluatePreconditions({ 'if-modified-since': 'Tue, 01 Oct 2024 09:59:59 GMT' }, v)).toBe(
      'proceed',
    );
  });
  it('fails If-Match unless a strong tag matches, and If-Unmodified-Since when modified later', () => {
    expect(evaluatePreconditions({ 'if-match': 'W/"abc"' }, v)).toBe('failed');
    expect(evaluatePreconditions({ 'if-match': '"abc"' }, v)).toBe('proceed');
    expect(evaluatePreconditions({ 'if-match': 'garbage' }, v)).toBe('failed');
    expect(
      evaluatePreconditions({ 'if-unmodified-since': 'Tue, 01 Oct 2024 09:00:00 GMT' }, v),
    ).toBe('failed');
    expect(evaluatePreconditions({ 'if-unmodified-since': at('') }, v)).toBe('proceed');
  });
  it('treats a malformed If-None-Match as no match', () => {
    expect(evaluatePreconditions({ 'if-none-match': 'abc' }, v)).toBe('proceed');
  });
});

describe('notModifiedHeaders (RFC 9110 section 15.4.5)', () => {
  it('keeps the fields a 304 repeats and those CORS needs, and nothing else', () => {
    const ok = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link, Retry-After, Changes-Cursor',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=60',
      Expires: 'Tue, 01 Oct 2024 10:01:00 GMT',
      'Content-Location': '/reviews.json',
      Link: '<https://hub.example/>; rel="hub"',
      'Content-Security-Policy': "default-src 'none'",
      Vary: 'Accept-Encoding',
      ETag: '"abc-br"',
      'Last-Modified': 'Tue, 01 Oct 2024 10:00:00 GMT',
      'Content-Type': 'application/json',
      'Content-Length': 1234,
      'Content-Encoding': 'br',
    };
    expect(notModifiedHeaders(ok)).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link, Retry-After, Changes-Cursor',
      'Cache-Control': 'public, max-age=60',
      Expires: 'Tue, 01 Oct 2024 10:01:00 GMT',
      'Content-Location': '/reviews.json',
      Link: '<https://hub.example/>; rel="hub"',
      Vary: 'Accept-Encoding',
      ETag: '"abc-br"',
      'Last-Modified': 'Tue, 01 Oct 2024 10:00:00 GMT',
    });
  });
});
