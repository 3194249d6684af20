/** What a query string's text means for a query schema: which parameters are numbers. */
import { z } from 'zod';
import { dict, type Dict } from '../platform/dict.js';

/**
 * Which parameters of a query schema's fields are numbers (`integer` or `number`), read from the
 * fields themselves (through `optional` and `default`): the query string writes them as text.
 */
export function numericParams(
  fields: Readonly<Record<string, z.ZodType>>,
): Dict<'integer' | 'number'> {
  const out: Dict<'integer' | 'number'> = dict();
  for (const [name, field] of Object.entries(fields)) {
    let type: z.ZodType = field;
    while (type instanceof z.ZodOptional || type instanceof z.ZodDefault)
      type = type.def.innerType as z.ZodType;
    if (type instanceof z.ZodNumber) out[name] = type.isInt ? 'integer' : 'number';
  }
  return out;
}
