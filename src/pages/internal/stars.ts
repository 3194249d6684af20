import { html, raw, type Html } from './html.js';

const STAR_PATH = 'M12 1.8l3.1 6.4 7 1-5.1 4.9 1.2 7L12 17.8l-6.2 3.3 1.2-7L1.9 9.2l7-1z';

/** The star symbol every rating draws (once per page, at the start of the body). */
export const STAR_SPRITE = raw(
  `<svg class="sprite" width="0" height="0" aria-hidden="true" focusable="false"><symbol id="star" viewBox="0 0 24 24"><path d="${STAR_PATH}"/></symbol></svg>`,
);

function row(cls: string): string {
  let out = '';
  for (let i = 0; i < 5; i++)
    out += `<use href="#star" x="${i * 24}" width="24" height="24" class="${cls}"/>`;
  return out;
}
const OFF = row('off');
const ON = row('on');

/**
 * Five stars, filled up to `value` (fractions fill part of a star), as an image whose accessible
 * name is `label`.
 */
export function stars(value: number, label: string, size: 'sm' | 'md' | 'lg' = 'sm'): Html {
  const width = Math.round(Math.max(0, Math.min(5, value)) * 24 * 10) / 10;
  return html`<svg
    class="stars stars-${size}"
    viewBox="0 0 120 24"
    role="img"
    aria-label="${label}"
  >
    ${raw(OFF)}<svg width="${width}" height="24" viewBox="0 0 ${width} 24">${raw(ON)}</svg>
  </svg>`;
}

/** The stars of one review (`Rated 4 out of 5`). */
export function reviewStars(rating: number, size: 'sm' | 'md' = 'sm'): Html {
  return stars(rating, `Rated ${rating} out of 5`, size);
}
