import { Server } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
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
} from '@modelcontextprotocol/core';
import type { Snapshot } from '../snapshot/types.js';
import { CACHE_HINTS } from './cache-hints.js';
import type { HandlerFamily, McpDeps } from './handlers/family.js';
import { createPromptHandlers } from './handlers/prompts.js';
import { createResourceHandlers } from './handlers/resources.js';
import { createToolHandlers } from './handlers/tools.js';
import { serverInfo } from './identity.js';
import { instructions } from './instructions.js';
import { requestSchemas } from './internal/messages.js';
import { revisionOf, type RequestInfo } from './revisions.js';

export type { McpDeps };

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

/** What the server declares (a fresh object per server: the SDK keeps and may merge into it). */
const capabilities = () => ({
  tools: { listChanged: false },
  // Changes are sent over the session's event stream (GET /mcp) in 2025, and over
  // `subscriptions/listen` streams in 2026-07-28.
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: false },
  completions: {},
  // Log messages (new data versions) go over the session's event stream.
  logging: {},
});

/**
 * Builds the MCP server on the SDK's low-level `Server`: handlers for tools, resources, prompts
 * and completion (one handler family each, `handlers/`) over the current snapshot, for a session
 * that negotiated `protocolVersion`. One is built per HTTP request (stateless), which is what
 * lets any instance serve any session; everything expensive is precomputed once.
 */
export function createMcpServerFactory(
  deps: McpDeps,
): (snapshot: Snapshot, request: RequestInfo) => Server {
  const families: HandlerFamily[] = [
    createToolHandlers(deps),
    createResourceHandlers(deps),
    createPromptHandlers(),
  ];
  // One JSON Schema validator for every per-request server (building Ajv is the costly part).
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  return (snapshot, { protocolVersion, session }) => {
    const server = new Server(serverInfo(snapshot, deps.urls.base, deps.version), {
      capabilities: capabilities(),
      instructions: instructions(snapshot),
      jsonSchemaValidator,
      // Used by 2026-07-28 answers only (cache-hints.ts).
      cacheHints: CACHE_HINTS,
    });
    const request = { snapshot, session, revision: revisionOf(protocolVersion) };
    for (const register of families) register(server, request);
    return server;
  };
}
