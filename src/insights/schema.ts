import { z } from 'zod';

const count = z.number().int().min(0);

export const Evidence = z.object({
  reviewId: z.string(),
  /** A sentence copied verbatim from the review text (`reviewBody`). */
  quote: z.string(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Sentiment = z.object({
  positive: count,
  negative: count,
  neutral: count,
  /** Reviews that say both good and bad things about it. */
  mixed: count,
  /** (positive − negative) / mentions, from −1 to 1; null without mentions. */
  score: z.number().nullable(),
});
export type Sentiment = z.infer<typeof Sentiment>;

export const EvidenceByPolarity = z.object({
  positive: z.array(Evidence),
  negative: z.array(Evidence),
  neutral: z.array(Evidence),
});
export type EvidenceByPolarity = z.infer<typeof EvidenceByPolarity>;

export const TrendPoint = Sentiment.extend({
  month: z.string().describe('YYYY-MM (local dates)'),
  mentions: count,
});

export const AspectInsight = Sentiment.extend({
  id: z.string(),
  name: z.string(),
  /** Reviews that mention the aspect. */
  mentions: count,
  trend: z.array(TrendPoint),
  evidence: EvidenceByPolarity,
});
export type AspectInsight = z.infer<typeof AspectInsight>;

export const EntityInsight = Sentiment.extend({
  name: z.string(),
  mentions: count,
  averageRating: z.number().nullable(),
  evidence: EvidenceByPolarity,
});

export const Insights = z.object({
  reviewCount: count,
  generatedAt: z
    .string()
    .describe('Commit time of the data version the insights were computed from.'),
  period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  aspects: z.array(AspectInsight),
  entities: z.object({
    technicians: z.array(EntityInsight.extend({ role: z.string().nullable() })),
    services: z.array(EntityInsight.extend({ id: z.string() })),
    serviceAreas: z.array(EntityInsight.extend({ id: z.string() })),
  }),
  topics: z.array(
    Sentiment.extend({
      id: z.string(),
      name: z.string(),
      mentions: count,
      recentMentions: count,
      evidence: EvidenceByPolarity,
    }),
  ),
  faq: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      answer: z.string(),
      basis: z.object({
        reviews: count,
        positive: count,
        negative: count,
        neutral: count,
        mixed: count,
      }),
      evidence: z.array(Evidence),
    }),
  ),
  summary: z.object({
    text: z.string(),
    strengths: z.array(
      z.object({ aspect: z.string(), statement: z.string(), evidence: z.array(Evidence) }),
    ),
    weaknesses: z.array(
      z.object({ aspect: z.string(), statement: z.string(), evidence: z.array(Evidence) }),
    ),
    recent: z.array(z.object({ aspect: z.string(), statement: z.string() })),
  }),
  changes: z.array(
    z.object({
      aspect: z.string(),
      name: z.string(),
      direction: z.enum(['better', 'worse']),
      metric: z.literal('negativeShare'),
      recent: z.object({
        from: z.string(),
        to: z.string(),
        mentions: count,
        negativeShare: z.number(),
      }),
      before: z.object({
        from: z.string(),
        to: z.string(),
        mentions: count,
        negativeShare: z.number(),
      }),
      test: z.object({
        name: z.literal('two-proportion z-test'),
        z: z.number(),
        pValue: z.number(),
        alpha: z.number(),
        correction: z
          .literal('holm')
          .describe("Holm's adjustment of the p-values of all the aspects tested together."),
        tested: count.describe('Aspects tested: those with 20 mentions or more in both periods.'),
        adjustedPValue: z
          .number()
          .describe('Holm-adjusted p-value; the change is reported when it is under alpha.'),
      }),
    }),
  ),
  ownerResponses: z.object({
    responded: count,
    total: count,
    rate: z.number().nullable(),
    medianResponseHours: z.number().nullable(),
  }),
  method: z.object({
    model: z.string(),
    version: z.string(),
    description: z.string(),
    benchmarks: z.record(z.string(), z.unknown()),
  }),
});
export type Insights = z.infer<typeof Insights>;
