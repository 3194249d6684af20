/** A value still to write, or text to write as is. */
type Step = { value: unknown } | { text: string };

/**
 * JSON text of a value with object keys in sorted order, so that equal values give equal text
 * whatever the order their keys were written in: a canonical cache key of parsed inputs.
 * `undefined` members are left out, as `JSON.stringify` leaves them out. It walks the value with
 * its own stack, never recursing, so input nested thousands deep (a JSON body may be) cannot
 * overflow the call stack.
 */
export function stableJson(value: unknown): string {
  const out: string[] = [];
  const steps: Step[] = [{ value }];
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const v = step.value;
    // Pushed in reverse: the last pushed is written first.
    if (Array.isArray(v)) {
      steps.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        steps.push({ value: v[i] ?? null });
        if (i > 0) steps.push({ text: ',' });
      }
      out.push('[');
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, m]) => m !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      steps.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, member] = entries[i]!;
        steps.push({ value: member });
        steps.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}
