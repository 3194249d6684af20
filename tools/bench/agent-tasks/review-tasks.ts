import { average, dataset, httpSearch, insights, monthBefore, tally } from './http-oracle.js';
import type { AgentTask, FullReview, Json, SearchPage } from './types.js';

/** The agent tasks that search and read reviews, and those about ratings and their summaries. */

export const oneStarBrakes: AgentTask = {
  id: 'one-star-brakes',
  question: 'Show me the one-star reviews that mention brakes.',
  async run(agent, api) {
    const services = (await agent.call('list_services')).structured.services as {
      id: string;
      name: string;
    }[];
    const brakes = services.find((s) => /brake/i.test(s.name))!;
    const page = (await agent.call('search_reviews', { rating: 1, mentions_service: brakes.id }))
      .structured as unknown as SearchPage;
    const http = await httpSearch(api, { rating: 1, mentions_service: 'brakes', limit: 100 });
    return {
      answer: { total: page.total, ids: page.reviews.map((r) => r.id) },
      expected: { total: http.total, ids: http.reviews.slice(0, 20).map((r) => r.id) },
    };
  },
};

export const answersToComplaints: AgentTask = {
  id: 'answers-to-complaints',
  question: 'How does the dealership answer complaints?',
  async run(agent, api) {
    const rate = (await agent.call('get_insights', { section: 'ownerResponses' })).structured
      .ownerResponses as { rate: number };
    const page = (await agent.call('search_reviews', { rating: 1, limit: 10 }))
      .structured as unknown as SearchPage;
    const http = await httpSearch(api, { rating: 1, limit: 10 });
    const doc = await insights(api);
    return {
      answer: { rate: rate.rate, replies: page.reviews.map((r) => r.reply ?? null) },
      expected: {
        rate: doc.ownerResponses.rate,
        replies: http.reviews.map((r) => r.ownerResponse?.text ?? null),
      },
    };
  },
};

export const overallRating: AgentTask = {
  id: 'overall-rating',
  question: 'What is the overall rating, out of how many reviews?',
  async run(agent, api) {
    const rating = (await agent.call('get_business')).structured.aggregateRating as {
      ratingValue: number;
      ratingCount: number;
    };
    const { reviews } = await dataset(api);
    return {
      answer: { ratingValue: rating.ratingValue, ratingCount: rating.ratingCount },
      expected: {
        ratingValue: average(reviews.map((r) => r.reviewRating.ratingValue)),
        ratingCount: reviews.length,
      },
    };
  },
};

export const ratingByMonth: AgentTask = {
  id: 'rating-by-month',
  question: 'How has the rating moved month by month this year?',
  async run(agent, api) {
    const latest = (await httpSearch(api, { limit: 1 })).reviews[0]!.date;
    const since = `${latest.slice(0, 4)}-01-01`;
    const summary = (await agent.call('get_rating_summary', { group_by: 'month', since }))
      .structured.groups as {
      key: string;
      aggregateRating: { ratingValue: number; ratingCount: number };
    }[];
    const { reviews } = await api<{ reviews: FullReview[] }>(`/api/reviews/since/${since}`);
    const months = tally(reviews, (r) => [r.date.slice(0, 7)]);
    return {
      answer: summary
        .map((g) => [g.key, g.aggregateRating.ratingCount, g.aggregateRating.ratingValue])
        .sort(),
      expected: months.map((m) => [m.key, m.mentions, m.averageRating]).sort(),
    };
  },
};

export const whatsNew: AgentTask = {
  id: 'whats-new',
  question: 'What came in since my last check, a week before the newest review?',
  async run(agent, api) {
    const latest = (await httpSearch(api, { limit: 1 })).reviews[0]!.date;
    const day = new Date(`${latest}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - 7);
    const date = day.toISOString().slice(0, 10);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const args: Json = cursor ? { date, cursor } : { date };
      const page = (await agent.call('get_reviews_since', args))
        .structured as unknown as SearchPage;
      ids.push(...page.reviews.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    const http = await api<{ reviews: FullReview[] }>(`/api/reviews/since/${date}`);
    return { answer: ids, expected: http.reviews.map((r) => r.id) };
  },
};

export const worstRatedService: AgentTask = {
  id: 'worst-rated-service',
  question: 'Which service gets the worst ratings (with at least 20 reviews)?',
  async run(agent, api) {
    const services = (await agent.call('list_services')).structured.services as {
      id: string;
      mentions: number;
      averageRating: number | null;
    }[];
    const worst = services
      .filter((s) => s.mentions >= 20)
      .sort((a, b) => (a.averageRating ?? 5) - (b.averageRating ?? 5))[0]!;
    const { reviews } = await dataset(api);
    const expected = tally(reviews, (r) => r.mentions.services)
      .filter((s) => s.mentions >= 20)
      .sort((a, b) => (a.averageRating ?? 5) - (b.averageRating ?? 5))[0]!;
    return {
      answer: { id: worst.id, mentions: worst.mentions, averageRating: worst.averageRating },
      expected: {
        id: expected.key,
        mentions: expected.mentions,
        averageRating: expected.averageRating,
      },
    };
  },
};

export const citeLatestReview: AgentTask = {
  id: 'cite-latest-review',
  question: 'Quote the newest review in full, with a citation.',
  async run(agent, api) {
    const page = (await agent.call('search_reviews', { limit: 1 }))
      .structured as unknown as SearchPage;
    const id = page.reviews[0]!.id;
    const review = JSON.parse(await agent.read(`review://${id}`)) as FullReview;
    const feed = await api<{ items: { id: string; content_text?: string }[] }>('/api/feed.json');
    const http = await httpSearch(api, { limit: 1 });
    return {
      answer: { newest: review.id, text: review.reviewBody },
      expected: {
        newest: feed.items[0]!.id.split(':').at(-1),
        text: http.reviews[0]!.reviewBody,
      },
    };
  },
};

export const weakestDepartment: AgentTask = {
  id: 'weakest-department',
  question: 'Which department has the lowest rating (with at least 20 reviews)?',
  async run(agent, api) {
    const groups = (await agent.call('get_rating_summary', { group_by: 'department' })).structured
      .groups as {
      key: string;
      aggregateRating: { ratingValue: number | null; ratingCount: number };
    }[];
    const worst = groups
      .filter((g) => g.aggregateRating.ratingCount >= 20)
      .sort(
        (a, b) => (a.aggregateRating.ratingValue ?? 5) - (b.aggregateRating.ratingValue ?? 5),
      )[0]!;
    const { reviews } = await dataset(api);
    const expected = tally(reviews, (r) => (r.department ? [r.department] : []))
      .filter((d) => d.mentions >= 20)
      .sort((a, b) => (a.averageRating ?? 5) - (b.averageRating ?? 5))[0]!;
    return {
      answer: { department: worst.key, rating: worst.aggregateRating.ratingValue },
      expected: { department: expected.key, rating: expected.averageRating },
    };
  },
};

export const financingComplaints: AgentTask = {
  id: 'financing-complaints',
  question: 'Were there complaints about financing in the last year?',
  async run(agent, api) {
    const latest = (await httpSearch(api, { limit: 1 })).reviews[0]!.date;
    const since = `${Number(latest.slice(0, 4)) - 1}${latest.slice(4)}`;
    // One and two stars in one call (`max_rating`, issue 28).
    const filters = { query: 'financ', max_rating: 2, since, limit: 10 };
    const page = (await agent.call('search_reviews', filters)).structured as unknown as SearchPage;
    const http = await httpSearch(api, filters);
    const answer = { total: page.total, ids: page.reviews.map((r) => r.id) };
    const expected = { total: http.total, ids: http.reviews.map((r) => r.id) };
    return { answer, expected };
  },
};

export const recentMonthsTrend: AgentTask = {
  id: 'recent-months-trend',
  question: 'How is the service department rated over the last three months?',
  async run(agent, api) {
    const latest = (await httpSearch(api, { limit: 1 })).reviews[0]!.date.slice(0, 7);
    const since = `${monthBefore(latest, 2)}-01`;
    const groups = (await agent.call('get_rating_summary', { group_by: 'department', since }))
      .structured.groups as { key: string; aggregateRating: { ratingValue: number | null } }[];
    const { reviews } = await api<{ reviews: FullReview[] }>(`/api/reviews/since/${since}`);
    const expected = tally(reviews, (r) => (r.department === 'service' ? ['service'] : []))[0];
    return {
      answer: groups.find((g) => g.key === 'service')?.aggregateRating.ratingValue ?? null,
      expected: expected?.averageRating ?? null,
    };
  },
};

export const nextPageOtherFilters: AgentTask = {
  id: 'next-page-other-filters',
  question: 'Now the two-star ones (the agent keeps the cursor of the one-star page).',
  async run(agent, api) {
    const first = await agent.call('search_reviews', { rating: 1, limit: 5 });
    const cursor = (first.structured as unknown as SearchPage).nextCursor!;
    const refused = await agent.call('search_reviews', { rating: 2, limit: 5, cursor });
    // The error says the cursor belongs to another call and to drop it: the agent does.
    const drop = refused.isError && /drop cursor/.test(refused.text);
    const page = (await agent.call('search_reviews', { rating: 2, limit: 5 }))
      .structured as unknown as SearchPage;
    const http = await httpSearch(api, { rating: 2, limit: 5 });
    return {
      answer: { drop, total: page.total, ids: page.reviews.map((r) => r.id) },
      expected: { drop: true, total: http.total, ids: http.reviews.map((r) => r.id) },
    };
  },
};

export const oneReviewInFull: AgentTask = {
  id: 'one-review-in-full',
  question: 'Show me the newest one-star review in full.',
  async run(agent, api) {
    const page = (await agent.call('search_reviews', { rating: 1, limit: 1 }))
      .structured as unknown as SearchPage;
    // get_review gives the full record by default, as its description says.
    const review = (await agent.call('get_review', { id: page.reviews[0]!.id })).structured
      .review as FullReview;
    const http = await httpSearch(api, { rating: 1, limit: 1 });
    return { answer: review, expected: http.reviews[0] };
  },
};
