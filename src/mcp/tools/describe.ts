import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDefinition } from './types.js';

/**
 * The tools as `tools/list` shows them: their zod schemas as JSON Schema, converted once. They
 * carry no icon of their own: the server's (`identity.ts`) would repeat 440 bytes in each, 1,260
 * tokens in all (docs/mcp.md, "What the server says of itself").
 */

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

/** The `tools/list` entries. */
export function describeTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output') as Tool['outputSchema'],
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }));
}
