/** Escapes text for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive whole-word matcher for any of the phrases (plurals and possessives allowed). */
export function phraseMatcher(phrases: readonly string[]): RegExp {
  const body = phrases
    .filter((p) => p.trim().length > 0)
    .map((p) => escapeRegExp(p.trim().toLowerCase()).replace(/\s+/g, '[\\s-]+'))
    .join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?:s|es|'s|’s)?(?![\\p{L}\\p{N}])`, 'iu');
}
