/**
 * The shapes of the agent task suite: what tools and the HTTP read API return, and the task, the
 * session it runs over and the record of its run.
 */

/** The structured content of a tool result, as an agent reads it. */
export type Json = Record<string, unknown>;

/** One review in the compact shape tools return by default. */
interface AgentReview {
  id: string;
  date: string;
  rating: number;
  author: string;
  text?: string;
  reply?: string;
  staff?: string[];
  services?: string[];
}

/** A review of the HTTP API (the full record). */
export interface FullReview {
  id: string;
  date: string;
  reviewRating: { ratingValue: number };
  reviewBody: string | null;
  reviewBodyTranslated: string | null;
  department: string | null;
  ownerResponse: { text: string } | null;
  mentions: { technicians: { name: string }[]; services: string[] };
}

export interface SearchPage {
  total: number;
  reviews: AgentReview[];
  nextCursor: string | null;
}

export interface Trend {
  month: string;
  mentions: number;
  score: number | null;
}

export interface Sentiment {
  mentions: number;
  positive: number;
  negative: number;
  score: number | null;
}

export interface InsightsDoc {
  summary: { text: string };
  aspects: (Sentiment & { id: string; trend: Trend[] })[];
  entities: { technicians: (Sentiment & { name: string; role: string | null })[] };
  topics: (Sentiment & { id: string })[];
  faq: { id: string; answer: string }[];
  changes: { aspect: string; direction: string }[];
  ownerResponses: { rate: number; responded: number; total: number };
}

/** What a task may do over MCP: every call is recorded and counted. */
export interface AgentSession {
  /** Calls a tool; a tool error comes back with `isError` and its text. */
  call(name: string, args?: Json): Promise<{ structured: Json; text: string; isError: boolean }>;
  /** Reads a resource; the text of its first content. */
  read(uri: string): Promise<string>;
  /** Gets a prompt: the text of its first message, or the JSON-RPC error's message. */
  prompt(name: string, args: Record<string, string>): Promise<{ text: string; isError: boolean }>;
}

/** The HTTP read API, for the expected answers (not counted: an agent does not pay for it). */
export type HttpApi = <T>(path: string) => Promise<T>;

export interface AgentTask {
  id: string;
  question: string;
  run(agent: AgentSession, api: HttpApi): Promise<{ answer: unknown; expected: unknown }>;
}

export interface TaskRun {
  task: AgentTask;
  calls: string[];
  tokens: number;
  answer: unknown;
  expected: unknown;
}
