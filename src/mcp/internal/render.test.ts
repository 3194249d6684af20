import { describe, expect, it } from 'vitest';
import { renderText } from './render.js';

describe('renderText', () => {
  it('writes a list of like records as a table, saying once what every row shares', () => {
    const text = renderText({
      groups: [
        { key: '2024-01', rating: { value: 4.5, count: 10, best: 5 } },
        { key: '2024-02', rating: { value: 3, count: 2, best: 5 } },
        { key: '2024-03', rating: { value: null, count: 0, best: 5 } },
      ],
      total: 3,
    });
    expect(text).toBe(
      [
        'groups (3; on every row: best 5): key|value|count',
        '2024-01|4.5|10',
        '2024-02|3|2',
        '2024-03|-|0',
        'total: 3',
      ].join('\n'),
    );
  });

  it('keeps every fact of nested records in far fewer bytes than their JSON', () => {
    const value = {
      staff: Array.from({ length: 20 }, (_, i) => ({
        name: `Person ${i}`,
        role: 'technician',
        mentions: i,
        averageRating: 4.25,
        evidence: { positive: [{ reviewId: `id-${i}`, quote: `Great work by person ${i}.` }] },
      })),
    };
    const text = renderText(value);
    expect(text).toContain(
      'staff (20; on every row: role technician, averageRating 4.25): name|mentions',
    );
    for (let i = 0; i < 20; i++) {
      expect(text).toContain(`\nPerson ${i}|${i}\n`);
      expect(text).toContain(`id-${i}|Great work by person ${i}.`);
    }
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThan(
      Buffer.byteLength(JSON.stringify(value)) * 0.75,
    );
  });

  it('shortens quotes first, then other free texts; never ids; and keeps the first rows of quotes', () => {
    const value = {
      answer: 'An answer that is rather long, with several words in it.',
      id: 'an-identifier-without-spaces',
      evidence: [
        { reviewId: 'r1', quote: 'The first quote, which says a good deal about the visit.' },
        { reviewId: 'r2', quote: 'The second quote.' },
      ],
    };
    const text = renderText(value, { cap: 5, rows: 1 });
    // Five characters of a quote, eight times as many of other texts.
    expect(text).toContain(`answer: ${value.answer.slice(0, 40)}…[cut]`);
    expect(text).toContain('id: an-identifier-without-spaces');
    expect(text).toContain('evidence (2; 1 more in structuredContent): reviewId|quote');
    expect(text).toContain('r1|The f…[cut]');
    expect(text).not.toContain('r2');
  });
});
