import { html, type Html } from './html.js';

const STAR_PATH = 'M12 1.8l3.1 6.4 7 1-5.1 4.9 1.2 7L12 17.8l-6.2 3.3 1.2-7L1.9 9.2l7-1z';

/** One star, the mask the stylesheet repeats five times (`/assets/star.<hash>.svg`). */
export const STAR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="${STAR_PATH}"/></svg>`;

/**
 * The rules that draw ratings: one element, a gradient filled up to `--p` seen through five
 * stars (a mask of `starFile`, a sibling of the stylesheet), and one class per tenth of a star
 * (`.s0` … `.s50`). No SVG in the page: a page of 20 reviews drew 210 `<use>` elements, each a
 * shadow tree for the browser to style and lay out.
 */
export function starRules(starFile: string): string {
  const mask = `url(${starFile}) 0 0/20% 100% repeat-x`;
  let widths = '';
  for (let tenths = 0; tenths <= 50; tenths++) widths += `.s${tenths}{--p:${tenths * 2}%}`;
  return (
    `.stars{display:inline-block;vertical-align:middle;height:1rem;width:5rem;flex:none;` +
    `background:linear-gradient(90deg,var(--star) var(--p),var(--star-off) var(--p));` +
    `-webkit-mask:${mask};mask:${mask};print-color-adjust:exact;-webkit-print-color-adjust:exact;forced-color-adjust:none}\n` +
    `.stars-md{height:1.25rem;width:6.25rem}\n.stars-lg{height:1.75rem;width:8.75rem}\n${widths}\n`
  );
}

/**
 * Five stars, filled up to `value` (to the nearest tenth of a star), as an image whose
 * accessible name is `label`.
 */
export function stars(value: number, label: string, size: 'sm' | 'md' | 'lg' = 'sm'): Html {
  const tenths = Math.round(Math.max(0, Math.min(5, value)) * 10);
  return html`<span class="stars stars-${size} s${tenths}" role="img" aria-label="${label}"></span>`;
}

/** The stars of one review (`Rated 4 out of 5`). */
export function reviewStars(rating: number, size: 'sm' | 'md' = 'sm'): Html {
  return stars(rating, `Rated ${rating} out of 5`, size);
}
