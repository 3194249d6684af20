/**
 * A record keyed by names that may come from outside (query parameters, form fields, file
 * columns), with no prototype: `d['constructor']` and `d['__proto__']` are `undefined`, and
 * writing `d['__proto__']` stores a value instead of changing the object's prototype.
 * `tools/lint/prototype-keys.ts` finds lookups with any string in records of any other kind;
 * it accepts these (by the type's name) and `Map`s.
 */
export type Dict<T> = { [key: string]: T };

/** A read-only `Dict`. */
export type ReadonlyDict<T> = { readonly [key: string]: T };

/** A new null-prototype record holding `entries`' own enumerable properties. */
export function dict<T>(entries: { readonly [key: string]: T } = {}): Dict<T> {
  return Object.assign(Object.create(null) as Dict<T>, entries);
}

/**
 * `record[key]` when `record` has `key` as an own property, else `undefined`: a lookup in a plain
 * object (parsed JSON, a table) that a prototype member's name cannot satisfy.
 */
export function own<T>(record: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.hasOwn(record, key) ? (record as ReadonlyDict<T>)[key] : undefined;
}
