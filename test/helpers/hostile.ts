import type { ReviewSourceInput } from '../../src/domain/review.js';

/** Markup that would run, or break out of its element, if a page wrote it unescaped. */
export const PAYLOADS = {
  title: '<img src=x onerror="window.__xss=1">Great</title>',
  author: '<b onmouseover="window.__xss=1">Eve</b><script>window.__xss=1</script>',
  body: 'Before </p></div><script>window.__xss=1</script> & "quoted" \'single\' </script><script>window.__xss=2</script> <svg onload="window.__xss=3"></svg>\n\nSecond paragraph with a brake job.',
  reply:
    '<iframe src="javascript:window.__xss=1"></iframe><a href="javascript:window.__xss=1">click</a>',
} as const;

/** Two reviews whose title, text, author and owner reply hold markup and script. */
export function hostileReviews(): ReviewSourceInput[] {
  return [
    {
      source: 'google',
      sourceReviewId: 'hostile-1',
      reviewRating: { ratingValue: 1 },
      name: PAYLOADS.title,
      reviewBody: PAYLOADS.body,
      author: { name: PAYLOADS.author },
      datePublished: '2025-12-30T18:00:00.000Z',
      ownerResponse: { text: PAYLOADS.reply },
    },
    {
      source: 'dealerrater',
      sourceReviewId: 'hostile-2',
      reviewRating: { ratingValue: 5 },
      name: null,
      reviewBody: '"}]</script><script>window.__xss=4</script>\u2028',
      author: { name: '</script><script>window.__xss=5</script>' },
      datePublished: '2025-12-29T18:00:00.000Z',
    },
  ];
}

/** The review ids of a page, in page order (`data-review-id` of each review card). */
export function pageReviewIds(html: string): string[] {
  return [...html.matchAll(/data-review-id="([^"]+)"/g)].map((m) => m[1]!);
}

/** The JSON-LD blocks of a page, parsed. */
export function jsonLdBlocks(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}
