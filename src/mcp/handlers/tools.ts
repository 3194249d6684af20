import type { CallToolResult } from '@modelcontextprotocol/server';
import { isServiceError } from '../../platform/errors.js';
import { jsonBytes } from '../agent.js';
import { fitText } from '../text-copy.js';
import { closestNames } from '../internal/closest.js';
import { invalidParams } from '../internal/errors.js';
import { renderText, type Limits } from '../internal/render.js';
import { keptToolResult } from '../result-cache.js';
import { describeTools } from '../tools/describe.js';
import { parseToolArguments, TOOLS } from '../tools/index.js';
import type { ToolDefinition, ToolOutcome } from '../tools/types.js';
import { answering, type HandlerFamily, type McpDeps } from './family.js';

/**
 * The tools family: `tools/list` (the tools' JSON Schemas, converted once) and `tools/call`
 * (arguments validated, the tool run over the request's snapshot, its result with a compact text
 * copy; a tool's failure is an `isError` result, and so is invalid input from 2025-11-25 on).
 */

/** A tool error's text is cut here (an error naming a thousand staff who share a first name). */
const MAX_ERROR_CHARS = 2_000;

function toolError(text: string): CallToolResult {
  const short = text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS)}…[cut]`;
  return { content: [{ type: 'text', text: short }], isError: true };
}

/**
 * -32602 for a tool the server does not have (a protocol error, as the specification says), with
 * the closest names ("did you mean"), or every name when none is close; the name asked for is not
 * echoed (the client has it).
 */
function unknownTool(name: string, names: readonly string[]): never {
  const near = closestNames(name.slice(0, 100), names);
  const message = near.length
    ? `is not a tool of this server; did you mean ${near.join(' or ')}?`
    : `is not a tool of this server; its tools are ${names.join(', ')}`;
  throw invalidParams(`Unknown tool: ${message.slice('is '.length)}`, [
    { path: ['name'], code: 'unknown_tool', message },
  ]);
}

/** A tool's outcome as a `tools/call` result. */
function toResult(outcome: ToolOutcome): CallToolResult {
  if ('error' in outcome) return toolError(outcome.error);
  // The text copy is a compact plain-text rendering of the same data, not the JSON again, at
  // most half its bytes (docs/mcp.md, "Result sizes").
  const { structured } = outcome;
  const build = outcome.text ?? ((limits: Limits) => renderText(structured, limits));
  return {
    content: [{ type: 'text', text: fitText(build, jsonBytes(structured)) }],
    structuredContent: structured,
  };
}

/** Runs a call, telling the observer (if any) how it ended. */
function observed(deps: McpDeps, name: string, run: () => CallToolResult): CallToolResult {
  const observer = deps.observer;
  if (!observer) return run();
  let result: CallToolResult;
  try {
    result = run();
  } catch (err) {
    observer.toolCalled(name, isServiceError(err, 'invalid_params') ? 'invalid_params' : 'error');
    throw err;
  }
  observer.toolCalled(name, result.isError ? 'tool_error' : 'ok');
  return result;
}

export function createToolHandlers(deps: McpDeps): HandlerFamily {
  const tools: readonly ToolDefinition[] = TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = { tools: describeTools(tools) };
  return (server, { snapshot, revision }) => {
    server.setRequestHandler(
      'tools/list',
      answering(() => listed),
    );
    server.setRequestHandler(
      'tools/call',
      answering((request) => {
        return observed(deps, request.params.name, () => {
          const tool =
            byName.get(request.params.name) ?? unknownTool(request.params.name, [...byName.keys()]);
          const call = (): CallToolResult => {
            let outcome: ToolOutcome;
            try {
              outcome = tool.run(parseToolArguments(tool, request.params.arguments), {
                snapshot,
                urls: deps.urls,
              });
            } catch (err) {
              const invalid = isServiceError(err, 'invalid_params');
              if (invalid && revision.toolInputErrorsAsResults) return toolError(err.message);
              throw err;
            }
            return toResult(outcome);
          };
          // 2025 results are kept by the transport (result-cache.ts); 2026 ones here.
          return revision.stateless ? keptToolResult(snapshot, request.params, call) : call();
        });
      }),
    );
  };
}
