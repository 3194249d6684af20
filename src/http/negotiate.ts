export type Coding = 'br' | 'gzip' | 'identity';

interface Weighted {
  name: string;
  q: number;
}

function parseAcceptEncoding(header: string): Weighted[] {
  const out: Weighted[] = [];
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    out.push({ name, q });
  }
  return out;
}

/**
 * Picks the content coding for a response from `Accept-Encoding` (RFC 9110 section 12.5.3):
 * the acceptable compressed coding with the highest weight (br before gzip on ties), unless the
 * client explicitly weighs identity higher.
 * `available` lists the codings prepared for this response.
 */
export function chooseCoding(header: string | undefined, available: readonly Coding[]): Coding {
  if (!header) return 'identity';
  const entries = parseAcceptEncoding(header);
  const star = entries.find((e) => e.name === '*');
  const weight = (name: string): number => {
    const e = entries.find((x) => x.name === name || (name === 'gzip' && x.name === 'x-gzip'));
    if (e) return e.q;
    if (name === 'identity') return star && star.q === 0 ? 0 : 1;
    return star ? star.q : 0;
  };
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const coding of ['br', 'gzip'] as const) {
    if (!available.includes(coding)) continue;
    const q = weight(coding);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Identity wins only when the client prefers it explicitly.
  const identity = entries.find((e) => e.name === 'identity');
  if (best !== 'identity' && identity && identity.q > bestQ) return 'identity';
  return best;
}
