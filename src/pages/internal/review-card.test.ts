import { describe, expect, it } from 'vitest';
import { reviewRecord } from '../../../test/helpers/records.js';
import { serviceUrls } from '../../catalogue.js';
import type { Review } from '../../domain/review.js';
import { reviewLd } from './json-ld.js';
import type { Site } from './layout.js';
import { reviewCard, type CardContext } from './review-card.js';

const CHICAGO: CardContext = { serviceNames: new Map(), timeZone: 'America/Chicago' };
const SITE: Site = {
  urls: serviceUrls('https://reviews.example.com'),
  assets: { css: '/site.css', icon: '/icon.svg' },
};

/** A review written on 1 February 2025 and last modified at `dateModified`. */
const modifiedAt = (dateModified: string): Review => ({
  ...reviewRecord({ key: 'e', date: '2025-02-01', datePublished: '2025-02-01T18:00:00.000Z' }),
  dateModified,
});

describe('the edited mark of a review card (issue 28)', () => {
  it('says "edited" with the local date of the edit, its instant and its time in words', () => {
    // 03:30 UTC on 10 February is still 9 February in Chicago (CST, UTC-6).
    const card = reviewCard(modifiedAt('2025-02-10T03:30:00.000Z'), CHICAGO).toString();
    expect(card).toContain(
      '<span class="edited">(edited <time datetime="2025-02-10T03:30:00.000Z" title="Edited on February 9, 2025 at 9:30 PM CST">Feb 9, 2025</time>)</span>',
    );
    // On the review's own page too.
    expect(reviewCard(modifiedAt('2025-02-10T03:30:00.000Z'), CHICAGO, 1).toString()).toContain(
      '(edited <time datetime="2025-02-10T03:30:00.000Z"',
    );
  });

  it('is absent for a review never modified or modified within the grace period', () => {
    for (const at of ['2025-02-01T18:00:00.000Z', '2025-02-01T18:05:00.000Z']) {
      const card = reviewCard(modifiedAt(at), CHICAGO).toString();
      expect(card).not.toContain('edited');
      expect(card).not.toContain(at);
    }
  });

  it('shows edit dates in UTC when the business has no profile yet', () => {
    const card = reviewCard(modifiedAt('2025-02-10T03:30:00.000Z'), {
      serviceNames: new Map(),
      timeZone: 'UTC',
    }).toString();
    expect(card).toContain(
      'title="Edited on February 10, 2025 at 3:30 AM UTC">Feb 10, 2025</time>',
    );
  });
});

describe('the JSON-LD of a review (issue 28)', () => {
  it('has dateModified, the edit instant, only when the review was edited', () => {
    expect(reviewLd(SITE, modifiedAt('2025-02-10T03:30:00.000Z')).dateModified).toBe(
      '2025-02-10T03:30:00.000Z',
    );
    expect(reviewLd(SITE, modifiedAt('2025-02-01T18:00:00.000Z'))).not.toHaveProperty(
      'dateModified',
    );
  });
});
