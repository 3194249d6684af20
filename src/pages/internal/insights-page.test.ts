import { describe, expect, it } from 'vitest';
import { serviceUrls } from '../../catalogue.js';
import type { AggregateRating } from '../../domain/aggregate.js';
import { Insights } from '../../insights/index.js';
import { aspectInsight } from '../../../test/helpers/aspects.js';
import { renderInsightsPage } from './insights-page.js';
import type { Site } from './layout.js';

const site: Site = {
  urls: serviceUrls('https://reviews.example.com'),
  assets: { css: '/assets/site.css', icon: '/assets/icon.svg' },
};

const aggregate: AggregateRating = {
  ratingValue: 4.1,
  ratingCount: 200,
  reviewCount: 180,
  bestRating: 5,
  worstRating: 1,
  distribution: { '1': 20, '2': 10, '3': 10, '4': 40, '5': 120 },
  asOf: '2026-10-31T12:00:00.000Z',
};

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const aspect = aspectInsight;

/** An insights document as `/insights.json` serves it, written by hand. */
const doc = Insights.parse({
  reviewCount: 200,
  generatedAt: '2026-11-01T00:00:00.000Z',
  period: { from: '2023-07-01', to: '2026-10-31' },
  aspects: [
    aspect('follow-up', 'Follow-up', [68, 24, 0, 2], {
      positive: [{ reviewId: id(1), quote: 'Chris called the next day to check on the car.' }],
      negative: [],
      neutral: [],
    }),
    aspect('wait-time', 'Wait time', [108, 142, 0, 16], {
      positive: [],
      negative: [{ reviewId: id(2), quote: 'Waited four hours for an oil change.' }],
      neutral: [],
    }),
    aspect('financing', 'Financing', [0, 0, 0, 0]),
  ],
  entities: { technicians: [], services: [], serviceAreas: [] },
  topics: [],
  faq: [
    {
      id: 'wait-times',
      question: 'How long do service visits take?',
      answer: '266 reviews mention wait times: 41% positively, 53% negatively, 6% both.',
      basis: { reviews: 266, positive: 108, negative: 142, neutral: 0, mixed: 16 },
      evidence: [
        { reviewId: id(3), quote: 'They got me in and out quicker than the quick lube places!!' },
        { reviewId: id(4), quote: 'they got me in and out quicker than the quick lube places!' },
        { reviewId: id(2), quote: 'Waited four hours for an oil change.' },
        { reviewId: id(5), quote: 'Took three hours in the box.' },
      ],
    },
  ],
  summary: {
    text: 'Lately, scheduling got worse: 93% of the 15 reviews that mentioned it in the last three months complained, against 52% of 44 in the year before, a difference too large to be chance.',
    strengths: [
      { aspect: 'follow-up', statement: 'Follow-up: 94 reviews mention it.', evidence: [] },
    ],
    weaknesses: [
      {
        aspect: 'wait-time',
        statement: 'Wait time: 266 reviews mention it.',
        evidence: [{ reviewId: id(2), quote: 'Waited four hours for an oil change.' }],
      },
    ],
    recent: [
      {
        aspect: 'wait-time',
        statement:
          'Lately, wait time got worse: 68% of the 41 reviews that mentioned it in the last three months complained, against 50% of 108 in the year before, a difference too large to be chance.',
      },
    ],
  },
  changes: [
    {
      aspect: 'wait-time',
      name: 'Wait time',
      direction: 'worse',
      metric: 'negativeShare',
      recent: { from: '2026-08-03', to: '2026-10-31', mentions: 41, negativeShare: 0.683 },
      before: { from: '2025-08-03', to: '2026-08-02', mentions: 108, negativeShare: 0.5 },
      test: {
        name: 'two-proportion z-test',
        z: 2.01,
        pValue: 0.045,
        alpha: 0.05,
        correction: 'holm',
        tested: 1,
        adjustedPValue: 0.045,
      },
    },
  ],
  ownerResponses: { responded: 116, total: 200, rate: 0.58, medianResponseHours: 18.1 },
  method: {
    model: 'dealership',
    version: '87dc18aae93a',
    description:
      'Sentences are split with exact offsets; a linear model ... trained offline by `npm run train`.',
    benchmarks: {},
  },
});

const page = renderInsightsPage(site, null, aggregate, doc);
/** The text a person reads in the main part of the page. */
const text = /<main[^>]*>([\s\S]*)<\/main>/
  .exec(page)![1]!
  .replace(/<[^>]+>/g, ' ')
  .replace(/\s+/g, ' ');

describe('the insights page', () => {
  it('writes for shoppers: no test statistics, ISO dates or developer notes', () => {
    expect(text).not.toMatch(/z-test|p = |0\.045|\d{4}-\d{2}-\d{2}|npm run|87dc18aae93a|Model /);
    expect(text).toContain('Most praised: follow-up (72% of the 94 reviews that mention it');
    expect(text).toContain('Most criticised: wait time (59% of 266 complain)');
    expect(text).toContain(
      'Wait time : 68% of the 41 reviews that mentioned it in the last three months (Aug 3 – Oct 31, 2026) complained, against 50% of 108 in the year before.',
    );
    expect(text).toContain('the dealership answered 58% of reviews, typically within 18 hours');
  });

  it('says how sure the figures are and links to how they are measured', () => {
    expect(text).toContain('How sure: a program read the');
    expect(text).toContain('so the counts are rather too low than too high');
    expect(page).toContain('<a href="#method-title">How this is measured</a>');
    expect(page).toContain('<h2 id="method-title">How this is measured</h2>');
  });

  it('states a change once: the summary points to it, the changes section tells it', () => {
    expect(text.match(/68%/g)).toHaveLength(1);
    expect(text).toContain(
      'Lately: in the last three months, more complaints than before about wait time (see recent changes below).',
    );
    expect(page).not.toContain('<h3>Lately</h3>');
  });

  it('leaves out topics nobody mentions, and names them', () => {
    expect(page).not.toContain('<h3>Financing</h3>');
    expect(text).toContain('Not mentioned yet: financing.');
  });

  it('shows an FAQ answer with its first three quotes, each wording once', () => {
    const faq = /<details>[\s\S]*?<\/details>/.exec(page)![0];
    expect(faq.match(/<blockquote/g)).toHaveLength(3);
    expect(faq.match(/quick lube/g)).toHaveLength(1);
    expect(faq).toContain('Took three hours in the box.');
  });
});
