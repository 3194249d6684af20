import fc from 'fast-check';

/**
 * A value that must never come back in an error message: `cnry` and eight hex digits. Mixed into
 * hostile input, it shows whether an answer echoes what was submitted.
 */
export const canary = (): fc.Arbitrary<string> =>
  fc.integer({ min: 0x10000000, max: 0x7fffffff }).map((n) => `cnry${n.toString(16)}`);

/** Strings every parser has tripped on once. */
export const TRICKY = [
  '',
  ' ',
  '\t',
  '0',
  '-0',
  '+1',
  '01',
  '1e3',
  '1E0',
  '0x10',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '1'.repeat(400),
  '3.',
  '.5',
  '4.50',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '%',
  '%00',
  '%ZZ',
  '%E2%82',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\ufeff',
  '\uffff',
  '\ud800',
  '\udc00',
  '😀',
  'ǅ',
  'İ',
  'ΣΑΣ',
  'ẞ',
  'ﬁ',
  'K',
  'e\u0301',
  '\u202e',
  '../../etc/passwd',
  '<script>',
  "'; DROP TABLE reviews;--",
  '${x}',
  '\\',
  '"',
  '&',
  '=',
  '?',
  '#',
  '+',
  '/',
  ';',
] as const;

/** Names a plain object already has: a parser that assigns them to `{}` loses them. */
export const OBJECT_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

/** Any string, from every Unicode plane (lone surrogates included), short or long. */
export const anyText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
    { weight: 1, arbitrary: canary() },
  );

/** A string that is long: past the documented limits of most fields. */
export const longText = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('a', 'é', '😀', ' ', '%41', 'x\u0000'))
    .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));

/**
 * Mutations of a string that keep it close to the original: a character dropped, doubled,
 * swapped for a tricky one, the case flipped, padded, cut. Near-valid input finds more than
 * random noise.
 */
export function mutated(valid: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, valid.length) });
  return fc.oneof(
    at.map((i) => valid.slice(0, i) + valid.slice(i + 1)),
    at.map((i) => valid.slice(0, i) + valid.charAt(i) + valid.slice(i)),
    fc
      .tuple(at, fc.constantFrom(...TRICKY))
      .map(([i, t]) => valid.slice(0, i) + t + valid.slice(i + 1)),
    fc
      .tuple(at, fc.constantFrom(...TRICKY))
      .map(([i, t]) => valid.slice(0, i) + t + valid.slice(i)),
    fc.constant(valid.toUpperCase()),
    fc.constantFrom(` ${valid}`, `${valid} `, `${valid}\n`, `${valid}${valid}`),
    at.map((i) => valid.slice(0, i)),
  );
}

/** A value that is valid as given, or a near miss of it, or anything at all. */
export function nearly(
  valid: fc.Arbitrary<string>,
  maxLength = 40,
  validWeight = 4,
): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: validWeight, arbitrary: valid },
    { weight: 4, arbitrary: valid.chain(mutated) },
    { weight: 2, arbitrary: anyText(maxLength) },
  );
}

/** A real or near-real calendar date `YYYY-MM-DD`, most in the years the test data covers. */
export const dateText = (): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .date({
          min: new Date('2022-06-01T00:00:00Z'),
          max: new Date('2026-06-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10)),
    },
    {
      weight: 1,
      arbitrary: fc
        .date({
          min: new Date('0000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 0, max: 9999 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
        )
        .map(
          ([y, m, d]) =>
            `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '2024-02-29',
        '2023-02-29',
        '2100-02-29',
        '2000-02-29',
        '2024-1-1',
        '20240101',
        '２０２４-０１-０１',
        '2024-01-01T00:00:00Z',
        '2024/01/01',
      ),
    },
  );

/** Percent-encodes each UTF-8 byte that is not unreserved (lone surrogates become U+FFFD). */
export function percent(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-encodes every UTF-8 byte that is not unreserved (what a careful client sends). */
export const encode = (s: string): string => encodeURIComponent(s);

/**
 * The bytes of `s` as a latin1 string: what goes on the wire for a target sent unencoded (each
 * UTF-8 byte one character). CR and LF are dropped so one request stays one request.
 */
export function rawBytes(s: string): string {
  return Buffer.from(s.replace(/[\r\n]/g, ''), 'utf8').toString('latin1');
}
