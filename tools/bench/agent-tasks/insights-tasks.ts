import { average, dataset, httpSearch, insights } from './http-oracle.js';
import type { AgentTask, FullReview, InsightsDoc, SearchPage, Sentiment, Trend } from './types.js';

/** The agent tasks that read the insights: aspects, their trends, topics, the FAQ, the summary. */

export const waitTimesSinceJuly: AgentTask = {
  id: 'wait-times-since-july',
  question: 'What do customers say about wait times since July?',
  async run(agent, api) {
    const latest = (await httpSearch(api, { limit: 1 })).reviews[0]!.date;
    const july = `${latest.slice(0, 4)}-07-01`;
    const aspect = await agent.call('get_insights', {
      section: 'aspects',
      id: 'wait-time',
      trend: true,
    });
    const item = (aspect.structured.aspects as InsightsDoc['aspects'])[0]!;
    // What the reviews say about the aspect (issue 28's filter), not the word "wait": the
    // complaints that say "2.5 HOURS" or "six hours" count too.
    const filters = { aspect: 'wait-time', since: july, limit: 10 };
    const page = (await agent.call('search_reviews', filters)).structured as unknown as SearchPage;
    const doc = await insights(api);
    const http = await httpSearch(api, filters);
    const months = (trend: Trend[]) => trend.filter((t) => t.month >= july.slice(0, 7));
    return {
      answer: {
        months: months(item.trend),
        total: page.total,
        ids: page.reviews.map((r) => r.id),
      },
      expected: {
        months: months(doc.aspects.find((a) => a.id === 'wait-time')!.trend),
        total: http.total,
        ids: http.reviews.map((r) => r.id),
      },
    };
  },
};

export const priceSentimentChange: AgentTask = {
  id: 'price-sentiment-change',
  question: 'Did price sentiment change lately?',
  async run(agent, api) {
    const overview = (await agent.call('get_insights')).structured;
    const changes = overview.changes as { aspect: string; direction: string }[];
    const aspect = await agent.call('get_insights', {
      section: 'aspects',
      id: 'price-value',
      trend: true,
    });
    const trend = (aspect.structured.aspects as InsightsDoc['aspects'])[0]!.trend;
    const doc = await insights(api);
    const expectedTrend = doc.aspects.find((a) => a.id === 'price-value')!.trend;
    const direction = (id: string) => changes.find((c) => c.aspect === id)?.direction ?? 'none';
    return {
      answer: {
        price: direction('price-value'),
        waitTime: direction('wait-time'),
        lastMonths: trend.slice(-3),
      },
      // The sample's calendar (tools/sample/events.ts): nothing happens to prices; two
      // technicians leave on 2026-08-01 and waits grow, which the last 90 days must show.
      expected: { price: 'none', waitTime: 'worse', lastMonths: expectedTrend.slice(-3) },
    };
  },
};

export const loanerCars: AgentTask = {
  id: 'loaner-cars',
  question: 'Do they offer loaner cars while my car is in service?',
  async run(agent, api) {
    const faq = (await agent.call('get_insights', { section: 'faq', id: 'loaner-cars' })).structured
      .faq as {
      answer: string;
      basis: { reviews: number };
      evidence: { reviewId: string; quote: string }[];
    }[];
    const { answer, basis, evidence } = faq[0]!;
    // Independently, over HTTP: the quotes are verbatim from the reviews they cite, which talk
    // of loaners or the shuttle, and the count is close to the reviews that name them.
    const { reviews } = await dataset(api);
    const byId = new Map(reviews.map((r) => [r.id, r]));
    const text = (r: FullReview | undefined) =>
      `${r?.reviewBody ?? ''} ${r?.reviewBodyTranslated ?? ''}`;
    const about = /loaner|shuttle|rental|courtesy car|ride/i;
    const naming = reviews.filter((r) => /loaner|shuttle/i.test(text(r))).length;
    return {
      answer: {
        counted: answer.startsWith(`${basis.reviews} reviews`),
        verbatim: evidence.every((e) => text(byId.get(e.reviewId)).includes(e.quote)),
        aboutLoaners: evidence.every((e) => about.test(text(byId.get(e.reviewId)))),
        closeToTheReviewsNamingThem: Math.abs(basis.reviews - naming) <= naming * 0.2,
      },
      expected: {
        counted: true,
        verbatim: true,
        aboutLoaners: true,
        closeToTheReviewsNamingThem: true,
      },
    };
  },
};

export const tradeInOffers: AgentTask = {
  id: 'trade-in-offers',
  question: 'Do people get fair trade-in offers here?',
  async run(agent, api) {
    const topic = (await agent.call('get_insights', { section: 'topics', id: 'trade-in' }))
      .structured.topics as Sentiment[];
    const page = (
      await agent.call('search_reviews', { query: 'trade-in', min_rating: 4, limit: 5 })
    ).structured as unknown as SearchPage;
    const doc = await insights(api);
    const http = await httpSearch(api, { query: 'trade-in', min_rating: 4, limit: 5 });
    const t = doc.topics.find((x) => x.id === 'trade-in')!;
    return {
      answer: { positive: topic[0]!.positive, negative: topic[0]!.negative, total: page.total },
      expected: { positive: t.positive, negative: t.negative, total: http.total },
    };
  },
};

export const strengthsAndWeaknesses: AgentTask = {
  id: 'strengths-and-weaknesses',
  question: 'In a sentence or two: what do customers love and hate here?',
  async run(agent, api) {
    const overview = (await agent.call('get_insights')).structured;
    const ranking = (overview.aspects as { id: string; score: number | null; mentions: number }[])
      .filter((a) => a.mentions >= 30)
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
      .map((a) => a.id);
    const summary = overview.summary as string;
    // Independently, over HTTP: reviews that talk of waiting rate far below the rest, and
    // reviews that name a staff member rate above the average.
    const { reviews } = await dataset(api);
    const mean = (list: FullReview[]) => average(list.map((r) => r.reviewRating.ratingValue))!;
    const all = mean(reviews);
    const waits = mean(reviews.filter((r) => /\bwait/i.test(r.reviewBody ?? '')));
    const staff = mean(reviews.filter((r) => r.mentions.technicians.length > 0));
    return {
      answer: {
        waitsAmongTheComplaints: /complaints concern[^.]*wait time/i.test(summary),
        waitsAmongTheWorstThree: ranking.slice(-3).includes('wait-time'),
        staffAmongTheStrengths: /praise most:[^.]*staff/i.test(summary),
      },
      expected: {
        waitsAmongTheComplaints: waits < all - 0.5,
        waitsAmongTheWorstThree: waits < all - 0.5,
        staffAmongTheStrengths: staff > all,
      },
    };
  },
};

export const topComplaint: AgentTask = {
  id: 'top-complaint',
  question: 'What do customers complain about most?',
  async run(agent, api) {
    const overview = (await agent.call('get_insights')).structured;
    const named = /Most complaints concern ([^(]+) \(/.exec(overview.summary as string)?.[1];
    type Counted = { id: string; name: string; negative: number; mixed: number };
    const most = (list: Counted[]) =>
      [...list]
        .filter((a) => a.id !== 'overall')
        .sort((a, b) => b.negative + b.mixed - (a.negative + a.mixed))[0]!;
    const top = most((await insights(api)).aspects as unknown as Counted[]);
    return {
      answer: { inTheSummary: named, byCount: most(overview.aspects as Counted[]).id },
      expected: { inTheSummary: top.name.toLowerCase(), byCount: top.id },
    };
  },
};

export const quoteOnPrice: AgentTask = {
  id: 'quote-on-price',
  question: 'Quote a customer who complained about prices.',
  async run(agent, api) {
    const item = (await agent.call('get_insights', { section: 'aspects', id: 'price-value' }))
      .structured.aspects as {
      trend?: unknown;
      evidence: { negative: { reviewId: string; quote: string }[] };
    }[];
    const quote = item[0]!.evidence.negative[0]!;
    const { reviews } = await dataset(api);
    const review = reviews.find((r) => r.id === quote.reviewId);
    const text = `${review?.reviewBody ?? ''} ${review?.reviewBodyTranslated ?? ''}`;
    return {
      answer: {
        verbatim: text.includes(quote.quote),
        withoutTrend: item[0]!.trend === undefined,
      },
      expected: { verbatim: true, withoutTrend: true },
    };
  },
};
