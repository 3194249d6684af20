/** The MCP endpoint: the public surface of `src/mcp`. */
export { mcpRoutes } from './endpoint/route.js';
export type { McpRouteOptions } from './endpoint/route.js';
export { createMcpServerFactory } from './server.js';
export type { McpDeps } from './server.js';
export { createSessionManager } from './sessions.js';
export { createStreams } from './streams.js';
export type { Streams } from './streams.js';
export type { SessionClaims, SessionManager } from './sessions.js';
export { McpResultCache } from './result-cache.js';
export type { ToolDefinition, ToolOutcome } from './tools/index.js';
export type { McpObserver, ToolCallOutcome } from './observer.js';
export { TOOL_NAMES } from './tools/index.js';
