import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServiceUrls } from '../catalogue.js';
import type { Snapshot } from '../snapshot/types.js';
import { isStoreBusy, isStoreUnavailable, type SessionStore } from '../store/index.js';
import { invalidParams, resourceNotFound, RpcError, storeUnavailable } from './internal/errors.js';
import { requestSchemas } from './internal/messages.js';
import { PROMPTS } from './prompts.js';
import { documentResources, readResource, REVIEW_TEMPLATE } from './resources.js';
import { fitText, jsonBytes } from './agent.js';
import { renderText, type Limits } from './internal/render.js';
import type { RequestInfo } from './route.js';
import type { SessionClaims } from './sessions.js';
import { parseToolArguments, TOOLS, type ToolDefinition } from './tools.js';

export interface McpDeps {
  urls: ServiceUrls;
  version: string;
  /** Where a session's subscriptions are kept (shared by every instance). */
  sessions: SessionStore;
}

/**
 * Every request method the server answers, with the SDK's schema of its params (the
 * specification's): the route checks params against them before the SDK runs, so that invalid
 * params are -32602 with a short message; other methods are left to the SDK (-32601).
 * `initialize` and `ping` are the SDK's own handlers.
 */
export const ANSWERED_REQUESTS = requestSchemas([
  InitializeRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  ListToolsRequestSchema,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  CompleteRequestSchema,
]);

/**
 * First protocol version in which a tool's input validation failure is a tool result with
 * `isError: true` (SEP-1303), so the model sees why; earlier versions get a JSON-RPC -32602.
 */
const INPUT_ERRORS_AS_RESULTS_FROM = '2025-11-25';

/** A tool error's text is cut here (an error naming a thousand staff who share a first name). */
const MAX_ERROR_CHARS = 2_000;

function toolError(text: string): CallToolResult {
  const short = text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS)}…[cut]`;
  return { content: [{ type: 'text', text: short }], isError: true };
}

/** Zod's bounds of an integer (the safe integers), which say nothing a client needs. */
function withoutSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) node.forEach(withoutSafeIntegerBounds);
  else if (node !== null && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.type === 'integer') {
      if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
      if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
    }
    Object.values(o).forEach(withoutSafeIntegerBounds);
  }
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  withoutSafeIntegerBounds(out);
  return out as Tool['inputSchema'];
}

/** The `tools/list` entries, converted to JSON Schema once. */
function describeTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output') as Tool['outputSchema'],
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }));
}

const instructionCache = new WeakMap<Snapshot, string>();

function instructions(snapshot: Snapshot): string {
  let text = instructionCache.get(snapshot);
  if (!text) {
    text = writeInstructions(snapshot);
    instructionCache.set(snapshot, text);
  }
  return text;
}

function writeInstructions(snapshot: Snapshot): string {
  const b = snapshot.business;
  const about = b
    ? `${b.name}, ${b.address.addressLocality}, ${b.address.addressRegion} (time zone ${b.timeZone})`
    : 'one business';
  return [
    `Read-only verified customer reviews of ${about}: ${snapshot.aggregate.ratingCount} ratings, average ${snapshot.aggregate.ratingValue ?? 'n/a'}/5.`,
    'Start with get_insights (an overview: summary, aspects with scores, significant changes, top staff) or search_reviews (filters combine with AND; dates are local YYYY-MM-DD; newest first, paged with nextCursor).',
    'list_staff and list_services give the staff and the service catalogue with mention counts; get_business gives the address, departments and the aggregate rating; get_rating_summary gives distributions by month, department or source; get_reviews_since pages through reviews since a date, oldest first; get_review fetches one review by id.',
    'Every tool is read-only. Quote reviews by id when you cite them.',
  ].join(' ');
}

/**
 * Builds the MCP server on the SDK's low-level `Server`: handlers for tools, resources, prompts
 * and completion over the current snapshot, for a session that negotiated `protocolVersion`. One
 * is built per HTTP request (stateless), which is what lets any instance serve any session;
 * everything expensive is precomputed once.
 */
export function createMcpServerFactory(
  deps: McpDeps,
): (snapshot: Snapshot, request: RequestInfo) => Server {
  const tools = TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = { tools: describeTools(tools) };
  // One JSON Schema validator for every per-request server (building Ajv is the costly part).
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const prompts = {
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments,
    })),
  };

  return (snapshot, { protocolVersion, session }) => {
    const inputErrorsAsResults = protocolVersion >= INPUT_ERRORS_AS_RESULTS_FROM;
    const server = new Server(
      { name: 'dealer-reviews', title: 'Customer reviews', version: deps.version },
      {
        capabilities: {
          tools: { listChanged: false },
          // Changes are sent over the session's event stream (GET /mcp).
          resources: { listChanged: true, subscribe: true },
          prompts: { listChanged: false },
          completions: {},
          // Log messages (new data versions) go over the session's event stream.
          logging: {},
        },
        instructions: instructions(snapshot),
        jsonSchemaValidator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => listed);
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = byName.get(request.params.name);
      if (!tool)
        throw invalidParams('Unknown tool', [
          { path: ['name'], code: 'unknown_tool', message: 'is not a tool of this server' },
        ]);
      let outcome;
      try {
        outcome = tool.run(parseToolArguments(tool, request.params.arguments), {
          snapshot,
          urls: deps.urls,
        });
      } catch (err) {
        const invalid = err instanceof RpcError && err.code === ErrorCode.InvalidParams;
        if (invalid && inputErrorsAsResults) return toolError(err.message);
        throw err;
      }
      if ('error' in outcome) return toolError(outcome.error);
      // The text copy is a compact plain-text rendering of the same data, not the JSON again, at
      // most half its bytes (docs/mcp.md, "Result sizes").
      const { structured } = outcome;
      const build = outcome.text ?? ((limits: Limits) => renderText(structured, limits));
      return {
        content: [{ type: 'text', text: fitText(build, jsonBytes(structured)) }],
        structuredContent: structured,
      };
    });
    /** A subscription names a document of the catalogue and lives as long as its session. */
    const subscription = (uri: string): SessionClaims => {
      if (!documentResources(deps.urls, snapshot).some((r) => r.uri === uri)) {
        throw resourceNotFound(uri);
      }
      if (!session) throw invalidParams('Subscriptions need a session');
      return session;
    };
    /** A session's write to the store; a store that cannot take it now is -32000, not -32603. */
    const write = async (change: Promise<void>): Promise<Record<string, never>> => {
      try {
        await change;
        return {};
      } catch (err) {
        if (isStoreUnavailable(err)) throw storeUnavailable(isStoreBusy(err) ? 2 : 5);
        throw err;
      }
    };
    // The level is kept with the session (in the store), for whichever instance holds its stream.
    server.setRequestHandler(SetLevelRequestSchema, (request) =>
      session
        ? write(deps.sessions.setLogLevel(session.key, request.params.level, session.expiresAtMs))
        : {},
    );
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      const claims = subscription(request.params.uri);
      return write(deps.sessions.subscribe(claims.key, request.params.uri, claims.expiresAtMs));
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      const claims = subscription(request.params.uri);
      return write(deps.sessions.unsubscribe(claims.key, request.params.uri));
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: documentResources(deps.urls, snapshot).map(({ path: _path, ...r }) => r),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        {
          uriTemplate: REVIEW_TEMPLATE,
          name: 'review',
          title: 'One review',
          description: 'One review by id, as JSON.',
          mimeType: 'application/json',
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
      contents: [readResource(request.params.uri, deps.urls, snapshot)],
    }));
    server.setRequestHandler(ListPromptsRequestSchema, () => prompts);
    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      const prompt = PROMPTS.find((p) => p.name === request.params.name);
      if (!prompt)
        throw invalidParams('Unknown prompt', [
          { path: ['name'], code: 'unknown_prompt', message: 'is not a prompt of this server' },
        ]);
      return prompt.get(request.params.arguments ?? {}, snapshot);
    });
    server.setRequestHandler(CompleteRequestSchema, (request) => {
      const { ref, argument } = request.params;
      if (ref.type === 'ref/resource' && ref.uri === REVIEW_TEMPLATE && argument.name === 'id') {
        const { values, total } = snapshot.index.idsWithPrefix(argument.value, 100);
        return { completion: { values, total, hasMore: total > values.length } };
      }
      let values: string[] = [];
      if (ref.type === 'ref/prompt') {
        const prompt = PROMPTS.find((p) => p.name === ref.name);
        if (!prompt)
          throw invalidParams('Unknown prompt', [
            {
              path: ['ref', 'name'],
              code: 'unknown_prompt',
              message: 'is not a prompt of this server',
            },
          ]);
        values = prompt.complete?.(argument.name, snapshot) ?? [];
      }
      const prefix = argument.value.toLowerCase();
      const matching = values.filter((v) => v.toLowerCase().startsWith(prefix));
      return {
        completion: {
          values: matching.slice(0, 100),
          total: matching.length,
          hasMore: matching.length > 100,
        },
      };
    });
    return server;
  };
}
