import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, scriptJson } from './html.js';
import { truncate } from './format.js';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const text = `<script>alert("x")</script> & 'y'`;
    expect(html`<p title="${text}">${text}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('keeps nested templates and raw markup, joins arrays and drops empty values', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${raw('<hr>')}${3}`.value).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul><hr>3',
    );
  });

  it('writes JSON that no text can end its script element with', () => {
    const out = scriptJson({ text: '</script><script>x</script>\u2028&' }).value;
    expect(out).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(out)).toEqual({ text: '</script><script>x</script>\u2028&' });
  });

  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('truncate', () => {
  it('cuts at a word boundary and never splits a surrogate pair', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('one two three four', 14)).toBe('one two three…');
    expect(truncate('aaaaaaaaa😀😀', 10)).toBe('aaaaaaaaa…');
  });
});
