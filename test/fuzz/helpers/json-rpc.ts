import fc from 'fast-check';
import { anyText, canary, dateText, nearly } from './arbitraries.js';
import { applyMutation, type Json, MUTATIONS, type Mutation, writeJson } from './json-mutation.js';

/**
 * JSON-RPC bodies for `/mcp`: valid MCP messages of every method the server answers, then
 * mutated (a field replaced by a hostile value, deleted, added; odd ids; deep nesting; huge
 * numbers and strings; batches). Placeholders in the serialised text stand for what
 * `JSON.stringify` cannot write (1e400, nesting deeper than its stack).
 */

export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

const TOOLS = [
  'get_business',
  'search_reviews',
  'get_review',
  'get_reviews_since',
  'get_rating_summary',
  'list_staff',
  'list_technicians',
  'list_services',
  'get_insights',
] as const;

const BASE = 'https://reviews.example.com';

/** Valid-looking tool arguments, each value sometimes a near miss. */
function toolArguments(tool: string, reviewIds: readonly string[]): fc.Arbitrary<unknown> {
  const date = nearly(dateText(), 20, 8);
  const text = (valid: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 4, arbitrary: valid }, anyText());
  switch (tool) {
    case 'search_reviews':
      return fc.record(
        {
          rating: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double()),
          min_rating: fc.double({ min: 0, max: 6 }),
          since: date,
          until: date,
          query: text(fc.constantFrom('brake', 'oil', 'Mike', 'ΣΑΣ', '😀')),
          mentions_technician: text(fc.constantFrom('Mike Torres', 'mike', 'Sarah')),
          mentions_service: text(fc.constantFrom('oil-change', 'brakes')),
          limit: fc.integer({ min: 0, max: 101 }),
          cursor: anyText(),
        },
        { requiredKeys: [] },
      );
    case 'get_review':
      return fc.record({
        id: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...reviewIds) },
          fc.uuid(),
          anyText(),
          canary(),
        ),
      });
    case 'get_reviews_since':
      return fc.record(
        { date, limit: fc.integer({ min: 0, max: 501 }), cursor: anyText() },
        { requiredKeys: ['date'] },
      );
    case 'get_rating_summary':
      return fc.record(
        {
          group_by: nearly(fc.constantFrom('month', 'department', 'source')),
          since: date,
          until: date,
        },
        { requiredKeys: [] },
      );
    case 'list_staff':
      return fc.record(
        { role: nearly(fc.constantFrom('technician', 'sales', 'service-advisor')) },
        { requiredKeys: [] },
      );
    case 'get_insights':
      return fc.record(
        { section: nearly(fc.constantFrom('aspects', 'entities', 'topics', 'faq', 'summary')) },
        { requiredKeys: [] },
      );
    default:
      return fc.constant({});
  }
}

/** A valid request (or notification, or response) of every kind the server meets. */
function message(reviewIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const request = (method: string, params: fc.Arbitrary<unknown> | null) =>
    (params ?? fc.constant(undefined)).map((p) => ({
      jsonrpc: '2.0',
      id: '__ID__',
      method,
      ...(p === undefined ? {} : { params: p }),
    }));
  return fc.oneof(
    request(
      'initialize',
      fc.record({
        protocolVersion: nearly(fc.constantFrom(...PROTOCOL_VERSIONS, '2099-01-01')),
        capabilities: fc.constant({}),
        clientInfo: fc.record({ name: anyText(), version: fc.constant('1') }),
      }),
    ),
    {
      weight: 6,
      arbitrary: fc.constantFrom(...TOOLS).chain((name) =>
        request(
          'tools/call',
          toolArguments(name, reviewIds).map((args) => ({ name, arguments: args })),
        ),
      ),
    },
    request('tools/list', fc.constant({})),
    request('resources/list', fc.constant({})),
    request('resources/templates/list', fc.constant({})),
    request(
      'resources/read',
      fc.record({
        uri: fc.oneof(
          fc.constantFrom(`${BASE}/api/feed.json`, `${BASE}/feed.xml`, `${BASE}/insights.json`),
          fc.constantFrom(...reviewIds).map((id) => `review://${id}`),
          anyText(),
        ),
      }),
    ),
    request('prompts/list', fc.constant({})),
    request(
      'prompts/get',
      fc.oneof(
        fc.record({
          name: fc.constant('summarize_recent_reviews'),
          arguments: fc.record({ days: nearly(fc.integer({ min: 0, max: 400 }).map(String)) }),
        }),
        fc.record({
          name: fc.constant('technician_feedback'),
          arguments: fc.record({ technician: nearly(fc.constantFrom('Mike Torres', 'Sarah')) }),
        }),
        fc.record({
          name: fc.constant('service_feedback'),
          arguments: fc.record({ service: nearly(fc.constantFrom('oil-change', 'brakes')) }),
        }),
      ),
    ),
    request(
      'completion/complete',
      fc.record({
        ref: fc.oneof(
          fc.constant({ type: 'ref/prompt', name: 'technician_feedback' }),
          fc.constant({ type: 'ref/resource', uri: 'review://{id}' }),
        ),
        argument: fc.record({
          name: fc.constantFrom('technician', 'id', 'service'),
          value: anyText(8),
        }),
      }),
    ),
    request(
      'logging/setLevel',
      fc.record({ level: nearly(fc.constantFrom('debug', 'info', 'error')) }),
    ),
    request('ping', null),
    request('no/such/method', fc.constant({})),
    fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    fc.constant({ jsonrpc: '2.0', id: '__ID__', result: {} }),
  );
}

/** What goes where a request id goes, as raw JSON text. */
export const ID_TEXTS = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 1_000_000 }).map(String) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '-1',
      '0',
      '1.5',
      '-0',
      '1e3',
      '1e400',
      '-1e400',
      '9007199254740993',
      '123456789012345678901234567890',
      'null',
      'true',
      '{}',
      '[]',
      '[1]',
      '""',
      JSON.stringify('x'.repeat(5000)),
    ),
  },
);

/** Writes a body: the messages serialised, ids and hostile values replaced by their raw text. */
function serialise(value: Json, values: string[], ids: string[]): string {
  let id = 0;
  return writeJson(value, values).replace(/"__ID__"/g, () => ids[id++ % ids.length]!);
}

export interface RpcBody {
  text: string;
  /** The messages as built, before serialisation (for the report). */
  kind: 'single' | 'batch' | 'text';
  /** Canaries put into string arguments: never to be echoed by an error. */
  canaries: string[];
}

/** A body for POST /mcp: mostly one message (sometimes mutated), some batches, some broken text. */
export function rpcBody(reviewIds: readonly string[]): fc.Arbitrary<RpcBody> {
  const mutatedMessage = fc
    .tuple(
      message(reviewIds),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant([] as Mutation[]) },
        { weight: 2, arbitrary: fc.array(MUTATIONS, { minLength: 1, maxLength: 2 }) },
      ),
    )
    .map(([m, mutations]) => {
      const values: string[] = [];
      let root = structuredClone(m) as Json;
      for (const mutation of mutations) root = applyMutation(root, mutation, values);
      return { root, values };
    });
  const single = fc.tuple(mutatedMessage, ID_TEXTS).map(([{ root, values }, id]) => ({
    text: serialise(root, values, [id]),
    kind: 'single' as const,
  }));
  const batch = fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.array(mutatedMessage, { minLength: 1, maxLength: 4 }) },
        { weight: 1, arbitrary: fc.constant([]) },
      ),
      fc.array(ID_TEXTS, { minLength: 1, maxLength: 4 }),
    )
    .map(([messages, ids]) => {
      const values: string[] = [];
      const roots = messages.map((m) => {
        const offset = values.length;
        values.push(...m.values);
        return JSON.parse(
          JSON.stringify(m.root).replace(
            /\\u0001hostile\\u0001(\d+)/g,
            (_x, i: string) => `\\u0001hostile\\u0001${Number(i) + offset}`,
          ),
        ) as Json;
      });
      return { text: serialise(roots, values, ids), kind: 'batch' as const };
    });
  const broken = fc
    .tuple(
      single,
      fc.nat(),
      fc.constantFrom('', ',', '}', '{', '"', '\\', '\u0000', 'NaN', '//', '\ufeff'),
    )
    .map(([s, at, insert]) => {
      const i = at % (s.text.length + 1);
      return {
        text: s.text.slice(0, i) + insert + s.text.slice(i + (insert === '' ? 1 : 0)),
        kind: 'text' as const,
      };
    });
  return fc
    .tuple(
      fc.oneof(
        { weight: 12, arbitrary: single },
        { weight: 3, arbitrary: batch },
        { weight: 2, arbitrary: broken },
      ),
      fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: canary() }),
    )
    .map(([body, c]) => {
      if (c === null || body.kind === 'text') return { ...body, canaries: [] };
      // The canary goes where a search query goes: a string argument the errors must not echo.
      const text = body.text.replace(/"query":"[^"]*"/, `"query":"${c}"`);
      return { ...body, text, canaries: text.includes(c) ? [c] : [] };
    });
}

/** A body whose size lands within a few bytes of `limit`, on either side. */
export function nearLimitBody(limit: number): fc.Arbitrary<RpcBody> {
  return fc.integer({ min: -40, max: 40 }).map((delta) => {
    const shell = (q: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { query: q } },
      });
    const pad = limit + delta - Buffer.byteLength(shell(''));
    return { text: shell('x'.repeat(Math.max(0, pad))), kind: 'single' as const, canaries: [] };
  });
}
