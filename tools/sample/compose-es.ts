import type { Written } from './compose-en.js';
import { expand, pickTemplate } from './grammar.js';
import { EN, ES, spanishPoolsFor, type TemplatePair } from './pools.js';
import { recordingRng, type Rng } from './prng.js';
import {
  createSlotContext,
  hasSlot,
  resolveSlot,
  translatedSlot,
  type SlotContext,
} from './slot-values.js';
import type { Visit } from './visit-types.js';

type Line = [string, string];

function renderPair(
  ctx: SlotContext,
  pool: readonly TemplatePair[] | undefined,
  used: Set<TemplatePair>,
): Line | null {
  if (!pool || pool.length === 0) return null;
  const byEs = new Map(pool.map((p) => [p[0], p]));
  const t = pickTemplate(
    pool.map((p) => p[0]),
    ctx.rng,
    (s) => hasSlot(ctx, s),
  );
  const pair = t ? byEs.get(t) : undefined;
  if (!pair || used.has(pair)) return null;
  used.add(pair);
  const rec = recordingRng(ctx.rng);
  const es = expand(pair[0], rec.rng, EN.rules, (name, form) => resolveSlot(ctx, name, form));
  const en = expand(pair[1], rec.replay(), EN.rules, (name, form) =>
    translatedSlot(ctx, name, form),
  );
  return [es, en];
}

function tone(v: Visit): 'pos' | 'neg' | 'mid' {
  if (v.valence === 'pos' || v.valence === 'mixed-pos') return 'pos';
  return v.valence === 'neg' || v.valence === 'mixed-neg' ? 'neg' : 'mid';
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const stripAccents = (s: string): string =>
  s.replace(/[áéíóú]/g, (c) => ({ á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u' })[c] ?? c);

const fixContractions = (s: string): string =>
  s.replace(/\ba el\b/g, 'al').replace(/\bde el\b/g, 'del');

function finish(lines: Line[], v: Visit, rng: Rng, update: Line | null): [string, string] {
  const casual = v.voice === 'casual' || v.voice === 'lower';
  const es = lines
    .map(([s]) => {
      const end = v.voice === 'angry' ? '!!' : rng.pick(['.', '.', '!', casual ? '' : '.']);
      const body = cap(s);
      return end === '!' && !casual && rng.chance(0.5) ? `¡${body}!` : body + end;
    })
    .join(' ');
  const en = lines.map(([, s]) => `${cap(s)}.`).join(' ');
  let text = fixContractions(casual && rng.chance(0.6) ? stripAccents(es) : es);
  if (v.voice === 'lower') text = text.toLowerCase();
  if (!update) return [text, en];
  return [`${text}\n\n${cap(update[0])}`, `${en}\n\n${cap(update[1])}`];
}

/**
 * Writes a Spanish review body, with the English a translation service would show beside it.
 * Spanish reviews are shorter and simpler than English ones (fewer pools, fewer sentences), name
 * the bilingual staff more often, and casual writers drop the accents.
 */
export function composeSpanish(v: Visit, rng: Rng): Written {
  const ctx = createSlotContext(v, rng, 'es');
  const used = new Set<TemplatePair>();
  const lines: Line[] = [];
  const t = tone(v);
  const add = (line: Line | null): void => {
    if (line) lines.push(line);
  };
  if (v.length !== 'tiny') {
    const context = v.salesKind ? ES.contextSales : v.dept === 'service' ? ES.contextService : null;
    if (context && rng.chance(0.55)) add(renderPair(ctx, context, used));
    for (const op of v.opinions) {
      for (const pool of spanishPoolsFor(op)) {
        const line = renderPair(ctx, pool, used);
        if (line) {
          lines.push(line);
          break;
        }
      }
    }
    if (rng.chance(0.6)) add(renderPair(ctx, ES.closers.get(t === 'neg' ? 'neg' : 'pos'), used));
  }
  if (lines.length === 0)
    add(renderPair(ctx, ES.tiny.get(t), used) ?? ['excelente servicio', 'excellent service']);
  const update = v.edit ? renderPair(ctx, ES.updates.get(v.edit.kind), used) : null;
  const [text, translation] = finish(lines, v, rng, update);
  return { text, mentioned: ctx.mentioned, translation };
}
