import { dataset, httpSearch, insights, tally } from './http-oracle.js';
import type { AgentTask, FullReview, SearchPage, Sentiment } from './types.js';

/** The agent tasks about the staff: technicians and salespeople, by name, misspelt or not. */

export const mostPraisedTechnician: AgentTask = {
  id: 'most-praised-technician',
  question: 'Which technician gets the most praise?',
  async run(agent, api) {
    const list = (await agent.call('list_staff', { role: 'technician' })).structured.staff as {
      name: string;
      mentions: number;
      positive?: number;
    }[];
    const top = [...list].sort((a, b) => (b.positive ?? 0) - (a.positive ?? 0))[0]!;
    // Independently, over HTTP: the technician named in the most four- and five-star reviews;
    // and the praise counted for them is a majority of the reviews that name them.
    const { reviews } = await dataset(api);
    const technicians = new Set(list.map((t) => t.name));
    const praised = tally(
      reviews.filter((r) => r.reviewRating.ratingValue >= 4),
      (r) => r.mentions.technicians.map((t) => t.name).filter((n) => technicians.has(n)),
    ).sort((a, b) => b.mentions - a.mentions)[0]!;
    const named = reviews.filter((r) => r.mentions.technicians.some((t) => t.name === top.name));
    return {
      answer: {
        name: top.name,
        praiseIsMostOfTheirReviews:
          (top.positive ?? 0) > named.length / 2 && (top.positive ?? 0) <= named.length,
      },
      expected: { name: praised.key, praiseIsMostOfTheirReviews: true },
    };
  },
};

export const feedbackOnATechnician: AgentTask = {
  id: 'feedback-on-a-technician',
  question: 'What are customers saying about Mike Torres?',
  async run(agent, api) {
    const page = (await agent.call('search_reviews', { mentions_technician: 'Mike Torres' }))
      .structured as unknown as SearchPage;
    const staff = await agent.call('get_insights', { section: 'staff', id: 'Mike Torres' });
    const entry = (staff.structured.staff as Sentiment[])[0]!;
    const http = await httpSearch(api, { mentions_technician: 'Mike Torres' });
    const doc = await insights(api);
    const expected = doc.entities.technicians.find((t) => t.name === 'Mike Torres')!;
    return {
      answer: { total: page.total, ids: page.reviews.map((r) => r.id), score: entry.score },
      expected: {
        total: http.total,
        ids: http.reviews.map((r) => r.id),
        score: expected.score,
      },
    };
  },
};

export const misspelledName: AgentTask = {
  id: 'misspelled-name',
  question: 'Any reviews about a staff member whose name the user misspelt?',
  async run(agent, api) {
    const { reviews } = await dataset(api);
    // The technician most often named, misspelt by dropping the last letter.
    const named = tally(reviews, (r) => r.mentions.technicians.map((t) => t.name)).sort(
      (a, b) => b.mentions - a.mentions,
    )[0]!.key;
    const first = await agent.call('search_reviews', { mentions_technician: named.slice(0, -1) });
    const suggested = /Closest names: ([^.]+)\./.exec(first.text)?.[1]?.split(', ')[0] ?? '';
    const page = (await agent.call('search_reviews', { mentions_technician: suggested }))
      .structured as unknown as SearchPage;
    const http = await httpSearch(api, { mentions_technician: named });
    return {
      answer: { refused: first.isError, suggested, total: page.total },
      expected: { refused: true, suggested: named, total: http.total },
    };
  },
};

export const bestSalesperson: AgentTask = {
  id: 'best-salesperson',
  question: 'Which salesperson should I ask for (best rated, at least 10 reviews)?',
  async run(agent, api) {
    const staff = (await agent.call('list_staff', { role: 'sales' })).structured.staff as {
      name: string;
      mentions: number;
      averageRating: number | null;
    }[];
    const best = staff
      .filter((s) => s.mentions >= 10)
      .sort((a, b) => (b.averageRating ?? 0) - (a.averageRating ?? 0))[0]!;
    const { reviews } = await dataset(api);
    const doc = await insights(api);
    const sales = new Set(
      doc.entities.technicians.filter((t) => t.role === 'sales').map((t) => t.name),
    );
    const expected = tally(reviews, (r) => r.mentions.technicians.map((t) => t.name))
      .filter((s) => sales.has(s.key) && s.mentions >= 10)
      .sort((a, b) => (b.averageRating ?? 0) - (a.averageRating ?? 0))[0]!;
    return {
      answer: { name: best.name, mentions: best.mentions, averageRating: best.averageRating },
      expected: {
        name: expected.key,
        mentions: expected.mentions,
        averageRating: expected.averageRating,
      },
    };
  },
};

export const mostMentionedTechnicians: AgentTask = {
  id: 'technicians',
  question: 'Which technicians do customers mention most?',
  async run(agent, api) {
    const listed = (await agent.call('list_technicians')).structured.technicians as {
      name: string;
      mentions: number;
    }[];
    // The roster of the dataset's business profile: the technicians, by role.
    const { business, reviews } = (await dataset(api)) as {
      business: { staff: { name: string; role: string }[] };
      reviews: FullReview[];
    };
    const technicians = new Set(
      business.staff.filter((s) => s.role === 'technician').map((s) => s.name),
    );
    const counted = new Map(
      tally(reviews, (r) => r.mentions.technicians.map((t) => t.name)).map((t) => [
        t.key,
        t.mentions,
      ]),
    );
    const mentions = listed.map((t) => t.mentions);
    return {
      answer: {
        mentions: listed.map((t) => [t.name, t.mentions]).sort(),
        mostMentionedFirst: mentions.every((m, i) => i === 0 || m <= mentions[i - 1]!),
      },
      expected: {
        mentions: [...technicians].map((n) => [n, counted.get(n) ?? 0]).sort(),
        mostMentionedFirst: true,
      },
    };
  },
};

export const promptMisspeltTechnician: AgentTask = {
  id: 'prompt-misspelt-technician',
  question: 'Write feedback for a technician whose name the user misspelt (a prompt).',
  async run(agent, api) {
    const first = await agent.prompt('technician_feedback', { technician: 'Mike Tores' });
    const suggested = /Closest names: ([^.]+)\./.exec(first.text)?.[1]?.split(', ')[0] ?? '';
    const prompt = await agent.prompt('technician_feedback', { technician: suggested });
    const count = /from the (\d+) reviews that mention them/.exec(prompt.text)?.[1];
    const http = await httpSearch(api, { mentions_technician: 'Mike Torres', limit: 1 });
    return {
      answer: { refused: first.isError, suggested, reviews: Number(count) },
      expected: { refused: true, suggested: 'Mike Torres', reviews: http.total },
    };
  },
};
