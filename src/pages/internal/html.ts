/**
 * A tiny HTML template helper: `html` is a tagged template whose interpolations are escaped
 * unless they are already `Html` (the result of another `html` template, or `raw` markup the
 * code itself wrote). Arrays are joined; `null`, `undefined` and `false` render nothing. Review
 * text, names and every other value from the data therefore reach the page only escaped.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];

const ESCAPES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  }),
);

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES.get(c)!);
}

function render(part: Part): string {
  if (part instanceof Html) return part.value;
  if (part === null || part === undefined || part === false) return '';
  if (typeof part === 'number') return String(part);
  if (typeof part === 'string') return escapeHtml(part);
  return part.map(render).join('');
}

/** The tagged template: literal parts as written, interpolations escaped. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the code wrote itself (never data). */
export function raw(markup: string): Html {
  return new Html(markup);
}

/**
 * JSON for a `<script type="application/ld+json">` block: `<`, `>` and `&` are written as
 * Unicode escapes, so no text of the data can close the element, and so are U+2028/U+2029.
 */
export function scriptJson(value: unknown): Html {
  return new Html(
    JSON.stringify(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}
