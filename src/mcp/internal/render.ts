import { own } from '../../platform/dict.js';
/**
 * The text copy of results that are not review pages: the same data as the structured content in
 * far fewer bytes, readable by a model. `key: value` lines; a list of like records is a table (a
 * header line of column names, then one `|`-separated row per record, columns whose value is the
 * same on every row said once in the header); other lists are `- ` items. To fit a budget, free
 * texts are shortened with the `…[cut]` mark (quotes first; identifiers never) and lists of quotes
 * keep their first rows, saying how many more structuredContent holds.
 */

type Scalar = string | number | boolean | null;

/** How much of the free texts a rendering keeps. */
export interface Limits {
  /** Characters a quote keeps; every other free text keeps `PRIMARY` times more. */
  cap: number;
  /** Rows a list of quotes keeps. */
  rows: number;
}

const CUT = '…[cut]';

/** Quotes are what a text copy shortens first: other free texts keep this many times more. */
const PRIMARY = 8;

const isScalar = (v: unknown): v is Scalar => v === null || typeof v !== 'object';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A string an agent cites as it is (an id, a date, a slug, a URL): never shortened. */
const isToken = (s: string) => s.length <= 64 && !/\s/.test(s);

function text(value: Scalar, limits: Limits, cell: boolean, key = ''): string {
  if (value === null) return '-';
  if (typeof value !== 'string') return String(value);
  let s = cell ? value.replace(/\s+/g, ' ').replace(/\|/g, '/') : value.replace(/\s*\n\s*/g, ' ');
  const keep = key === 'quote' ? limits.cap : limits.cap * PRIMARY;
  if (!isToken(s) && s.length > keep) s = `${s.slice(0, Math.max(0, keep))}${CUT}`;
  return s === '' ? '""' : s;
}

/** A record whose values are scalars, lists of scalars or such records again. */
function isFlat(v: unknown): v is Record<string, unknown> {
  return (
    isRecord(v) &&
    Object.values(v).every(
      (x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar)) || isFlat(x),
    )
  );
}

/** The columns of a flat record: dotted paths to scalars (a list of scalars is one column). */
function paths(record: Record<string, unknown>, prefix = '', out: string[] = []): string[] {
  for (const [k, v] of Object.entries(record)) {
    if (v === undefined) continue;
    const path = prefix ? `${prefix}.${k}` : k;
    if (isRecord(v)) paths(v, path, out);
    else out.push(path);
  }
  return out;
}

function at(record: Record<string, unknown>, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) v = isRecord(v) ? own(v, part) : undefined;
  return v;
}

function cellOf(v: unknown, limits: Limits, path: string): string {
  if (v === undefined) return '';
  const key = path.split('.').at(-1);
  if (Array.isArray(v)) return v.map((x) => text(x as Scalar, limits, true, key)).join(', ');
  return text(v as Scalar, limits, true, key);
}

/** Column names: the last part of each path, or more of it where that is ambiguous or a number. */
function headers(list: string[]): string[] {
  return list.map((p) => {
    const parts = p.split('.');
    for (let n = 1; n <= parts.length; n++) {
      const name = parts.slice(-n).join('.');
      const clash = list.some((q) => q !== p && (q === name || q.endsWith(`.${name}`)));
      if (!clash && !/^\d+$/.test(name)) return name;
    }
    return p;
  });
}

/** Whether a value goes in a table cell (a scalar, a list of scalars, a flat record). */
const isCell = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)) || isFlat(v);

/**
 * A list of records as a table: a header of the columns (the cells of every record), then a row
 * per record, each followed by the record's nested lists and records, indented.
 */
function table(
  key: string,
  all: Record<string, unknown>[],
  limits: Limits,
  indent: string,
): string[] {
  const flatPart = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined && isCell(v)));
  const columns = [...new Set(all.flatMap((row) => paths(flatPart(row))))];
  const quotes = columns.some((c) => c.split('.').at(-1) === 'quote');
  const rows = quotes ? all.slice(0, limits.rows) : all;
  const names = headers(columns);
  const cells = rows.map((row) => columns.map((p) => cellOf(at(row, p), limits, p)));
  const constant = new Set<number>();
  if (rows.length >= 3) {
    columns.forEach((_, i) => {
      const first = cells[0]![i]!;
      if (!first.includes(CUT) && cells.every((r) => r[i] === first)) constant.add(i);
    });
  }
  const every = [...constant].map((i) => `${names[i]} ${cells[0]![i]}`);
  const shown = columns.map((_, i) => i).filter((i) => !constant.has(i));
  const more = all.length - rows.length;
  const about = [
    `${all.length}`,
    ...(every.length ? [`on every row: ${every.join(', ')}`] : []),
    ...(more > 0
      ? [rows.length ? `${more} more in structuredContent` : 'all in structuredContent']
      : []),
  ].join('; ');
  const head = `${indent}${key} (${about})${rows.length ? `: ${shown.map((i) => names[i]).join('|')}` : ''}`;
  return [
    head,
    ...rows.flatMap((row, r) => [
      `${indent}${shown.map((i) => cells[r]![i]).join('|')}`,
      ...Object.entries(row)
        .filter(([, v]) => v !== undefined && !isCell(v))
        .flatMap(([k, v]) => lines(k, v, limits, `${indent}  `)),
    ]),
  ];
}

function lines(key: string, value: unknown, limits: Limits, indent: string): string[] {
  const label = `${indent}${key}`;
  if (isScalar(value)) return [`${label}: ${text(value, limits, false, key)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${label}: none`];
    if (value.every(isScalar))
      return [`${label}: ${value.map((v) => text(v, limits, true, key)).join(', ')}`];
    if (value.every(isRecord)) return table(key, value, limits, indent);
    return [
      `${label} (${value.length}):`,
      ...value.flatMap((item) => {
        if (!isRecord(item)) return lines('-', item, limits, indent);
        const inner = block(item, limits, `${indent}  `);
        if (inner.length > 0) inner[0] = `${indent}- ${inner[0]!.trimStart()}`;
        return inner;
      }),
    ];
  }
  if (isFlat(value)) {
    const parts = paths(value).map((p) => `${p} ${cellOf(at(value, p), limits, p)}`);
    return [`${label}: ${parts.join('; ')}`];
  }
  return [`${label}:`, ...block(value as Record<string, unknown>, limits, `${indent}  `)];
}

/**
 * A record as lines: its scalars (and flat records) on one line, `; `-separated, then its lists
 * and nested records each under its key.
 */
function block(record: Record<string, unknown>, limits: Limits, indent: string): string[] {
  const simple: string[] = [];
  const nested: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    if (v === undefined) continue;
    if (isScalar(v)) simple.push(`${k}: ${text(v, limits, false, k)}`);
    else if ((Array.isArray(v) && v.every(isScalar)) || isFlat(v))
      simple.push(...lines(k, v, limits, ''));
    else nested.push(...lines(k, v, limits, indent));
  }
  return [...(simple.length ? [`${indent}${simple.join('; ')}`] : []), ...nested];
}

/** The text copy of a JSON value (a result's structured content) within `limits`. */
export function renderText(
  value: unknown,
  limits: Limits = { cap: Number.MAX_SAFE_INTEGER, rows: Number.MAX_SAFE_INTEGER },
): string {
  if (!isRecord(value)) return lines('result', value, limits, '').join('\n');
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .flatMap(([k, v]) => lines(k, v, limits, ''))
    .join('\n');
}
