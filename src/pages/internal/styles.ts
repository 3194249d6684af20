/**
 * The stylesheet of every page, served as a static file whose name carries its content hash
 * (`/assets/site.<hash>.css`, cached for a year): the pages need no inline style, so the
 * Content-Security-Policy allows styles from the service's own origin only.
 */
export const SITE_CSS = `
:root{--ink:#111827;--muted:#4b5563;--line:#e5e7eb;--bg:#f5f6f8;--card:#fff;--accent:#1d4ed8;--accent-ink:#fff;--star:#d97706;--star-off:#d1d5db;--pos:#15803d;--mix:#a16207;--neu:#9ca3af;--neg:#b91c1c;--radius:12px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;line-height:1.55;color:var(--ink);background:var(--bg);-webkit-text-size-adjust:100%}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-size:1rem}
main,header.site,footer.site{overflow-wrap:anywhere}
table{overflow-wrap:break-word}
a{color:var(--accent);text-underline-offset:2px}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:4px}
h1,h2,h3{line-height:1.25;margin:0 0 .5rem}
h1{font-size:clamp(1.5rem,4vw,2rem)}
h2{font-size:1.35rem;margin-top:2rem}
h3{font-size:1.05rem}
p{margin:0 0 .75rem}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:2}
.skip:focus{left:1rem;top:1rem}
.wrap{max-width:980px;margin:0 auto;padding:0 1rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
header.site{background:var(--card);border-bottom:1px solid var(--line)}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;min-height:3.5rem;padding-top:.5rem;padding-bottom:.5rem}
.brand{font-weight:700;color:var(--ink);text-decoration:none;font-size:1.05rem}
nav.main ul{display:flex;gap:1.25rem;list-style:none;margin:0;padding:0}
nav.main a{color:var(--muted);text-decoration:none;font-weight:600;padding:.5rem 0;display:inline-block}
nav.main a[aria-current=page]{color:var(--ink);box-shadow:inset 0 -3px 0 var(--accent)}
main.wrap{padding-top:1.5rem;padding-bottom:3rem;display:block}
footer.site{border-top:1px solid var(--line);background:var(--card);color:var(--muted);font-size:.9rem;padding:1.25rem 0}
footer.site ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:.5rem 0 0;padding:0}
footer.site a{display:inline-block;padding:.25rem 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:1.25rem;margin-bottom:1rem}
.card>h2:first-child,.card>div>h2:first-child{margin-top:0}
.muted{color:var(--muted)}
.business{display:grid;gap:1.25rem}
.business address{font-style:normal;color:var(--muted)}
.score{display:flex;align-items:center;gap:.75rem;flex-wrap:wrap}
.score .big{font-size:2.75rem;font-weight:700;line-height:1}
.dist{list-style:none;margin:0;padding:0;display:grid;gap:.35rem}
.dist li{display:grid;grid-template-columns:3.25rem 1fr 3.5rem;align-items:center;gap:.5rem;font-size:.9rem}
.dist a{text-decoration:none}
.dist .n{text-align:right;color:var(--muted);font-variant-numeric:tabular-nums}
svg.meter{width:100%;height:.6rem;display:block;border-radius:99px;overflow:hidden}
svg.meter .track{fill:#eef0f3}
svg.meter .fill{fill:var(--star)}
.links{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0;list-style:none}
.links a{display:inline-block;padding:.2rem 0}
@media (min-width:720px){.business{grid-template-columns:1.2fr 1fr;align-items:start}}
form.filters{display:grid;gap:.75rem 1rem;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));align-items:end}
form.filters .wide{grid-column:1/-1}
label{display:block;font-weight:600;font-size:.875rem;margin-bottom:.25rem}
input,select,button{font:inherit;color:inherit}
input,select{width:100%;min-height:2.75rem;padding:.5rem .65rem;border:1px solid #8a94a3;border-radius:8px;background:#fff}
.actions{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
button{min-height:2.75rem;padding:.5rem 1.25rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-ink);font-weight:600;cursor:pointer}
.chips{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0 0 1rem;padding:0}
.chips a{display:inline-flex;align-items:center;gap:.35rem;padding:.35rem .75rem;border-radius:99px;background:#e8eefc;color:#1e3a8a;text-decoration:none;font-size:.875rem;font-weight:600}
.result-head{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:.5rem;margin:1.5rem 0 .75rem}
.result-head h2{margin:0}
ol.reviews{list-style:none;margin:0;padding:0}
.review header{display:flex;flex-direction:column;gap:.25rem;margin-bottom:.6rem}
.review .top .stars{margin-right:.2rem;vertical-align:-3px}
.review h3{margin:0;font-size:1rem}
.review .title{font-weight:700;margin-bottom:.35rem}
.review h1{font-size:1.5rem;margin:0}
.review h3 a{color:var(--ink);text-decoration:none}
.review h3 a:hover{text-decoration:underline}
.meta{color:var(--muted);font-size:.875rem;margin:0}
.meta a{color:var(--muted)}
.edited{white-space:nowrap}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:99px;font-size:.75rem;font-weight:600;border:1px solid transparent;white-space:nowrap}
.badge.verified{background:#e7f6ec;color:#14532d;border-color:#b7e4c7}
.badge.plain{background:#f3f4f6;color:#374151;border-color:#d1d5db}
.text{overflow-wrap:anywhere}
.text p{margin:0 0 .6rem}
.text p:last-child{margin-bottom:0}
.translation{color:var(--muted);font-size:.925rem;margin-top:.6rem}
.translation .label{font-weight:600;font-size:.8rem;margin-bottom:.2rem}
.mentions{font-size:.875rem;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.mentions a{display:inline-block;padding:.15rem 0}
.reply{margin-top:.85rem;padding:.75rem 1rem;border-left:3px solid var(--accent);background:#f3f6fd;border-radius:0 8px 8px 0}
.reply .text p:last-child{margin:0}
.reply .label{font-weight:600;font-size:.875rem;margin-bottom:.25rem}
.empty{text-align:center;padding:2rem 1rem}
nav.pager{display:grid;grid-template-columns:1fr auto 1fr;align-items:center;gap:.75rem;margin-top:1.5rem}
nav.pager a{display:inline-block;padding:.6rem 1rem;border:1px solid var(--line);border-radius:8px;background:var(--card);text-decoration:none;font-weight:600;white-space:nowrap}
nav.pager a[rel=next]{justify-self:end}
nav.pager a[rel=prev]{justify-self:start}
nav.pager .where{color:var(--muted);font-size:.9rem;text-align:center}
.filters-panel{padding:0}
.filters-panel>summary{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1rem .75rem;padding:1rem 1.25rem;font-weight:700;font-size:1.1rem;list-style:none;border-radius:var(--radius)}
.filters-panel>summary::-webkit-details-marker{display:none}
.filters-panel>summary::before{content:"";width:.55rem;height:.55rem;border-right:2px solid currentColor;border-bottom:2px solid currentColor;transform:rotate(-45deg);margin-right:.15rem;align-self:center;transition:transform .15s}
.filters-panel[open]>summary::before{transform:rotate(45deg)}
.filters-panel .hint{font-weight:400;font-size:.875rem;color:var(--muted)}
.filters-panel form{padding:0 1.25rem 1.25rem}
input[type=date]{padding-left:.45rem;padding-right:.35rem;min-width:0}
@media (max-width:480px){.card{padding:1rem}.card.filters-panel{padding:0}.filters-panel>summary{padding:.9rem 1rem}.filters-panel form{padding:0 1rem 1rem;gap:.75rem}}
.crumbs{margin-bottom:1rem}
.crumbs a{display:inline-block;padding:.25rem 0}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(280px,1fr))}
.grid .card{margin:0}
.facts{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));margin:0}
.facts div{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:1rem}
.facts dt{color:var(--muted);font-size:.875rem}
.facts dd{margin:0;font-size:1.5rem;font-weight:700}
.facts .of{font-size:.9rem;font-weight:600;color:var(--muted)}
svg.bar{width:100%;height:.75rem;display:block;border-radius:4px;overflow:hidden;margin:.35rem 0}
.pos{fill:var(--pos)}.mix{fill:var(--mix)}.neu{fill:var(--neu)}.neg{fill:var(--neg)}
.legend{display:flex;flex-wrap:wrap;gap:.25rem .9rem;list-style:none;margin:0 0 1rem;padding:0;font-size:.875rem}
.legend li{display:flex;align-items:center;gap:.35rem}
.legend svg{width:.8rem;height:.8rem}
.shares{font-size:.8rem;color:var(--muted);margin:0}
.spark{margin:.75rem 0 .5rem}
.spark figcaption{font-size:.75rem;color:var(--muted);margin-bottom:.15rem}
.spark svg{width:100%;height:2.75rem;display:block;overflow:visible}
.spark polyline{fill:none;stroke:var(--accent);stroke-width:2;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
.spark .dot{stroke:var(--accent);stroke-width:5;stroke-linecap:round;vector-effect:non-scaling-stroke}
.spark .few{stroke:#93a4c8;stroke-width:4;stroke-linecap:round;vector-effect:non-scaling-stroke}
.spark line{stroke:#d1d5db;stroke-width:1;stroke-dasharray:3 3;vector-effect:non-scaling-stroke}
.spark-axis{font-size:.75rem;color:var(--muted);margin:.15rem 0 0;display:flex;justify-content:space-between;gap:1rem}
blockquote{margin:.75rem 0 0;padding:0 0 0 .75rem;border-left:3px solid var(--line);font-size:.925rem}
blockquote.positive{border-color:var(--pos)}
blockquote.negative{border-color:var(--neg)}
blockquote.positive::before,blockquote.negative::before{display:block;font-size:.7rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;margin-bottom:.1rem}
blockquote.positive::before{content:"Praise";color:var(--pos)}
blockquote.negative::before{content:"Complaint";color:var(--neg)}
.lead{color:var(--muted);font-size:1.05rem;max-width:46rem}
.summary ul{margin:0;padding-left:1.1rem}
.summary li{margin:.3rem 0}
.summary li::marker{color:var(--muted)}
.point-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.1rem .75rem;margin:0}
.point-head .muted{font-size:.875rem}
.note{font-size:.875rem;margin-top:.5rem}
blockquote p{margin:0 0 .2rem;overflow-wrap:anywhere}
blockquote a{font-size:.8rem}
.table-wrap{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:var(--radius)}
table{border-collapse:collapse;width:100%;font-size:.925rem}
th,td{text-align:left;padding:.6rem .75rem;border-bottom:1px solid var(--line);vertical-align:middle}
tr:last-child td{border-bottom:0}
th{font-size:.8rem;color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.bar-cell{min-width:8rem;width:35%}
td.num,th.num{width:1%}
td.num{white-space:nowrap}
th .sub{display:block;font-weight:400;font-size:.8rem;color:var(--muted)}
tbody th{font-size:.925rem;color:var(--ink);font-weight:600;overflow-wrap:break-word}
@media (max-width:560px){th,td{padding:.55rem .4rem}th:first-child,td:first-child{padding-left:.75rem}td.bar-cell{min-width:4rem;width:28%}}
details{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:.75rem 1rem;margin-bottom:.5rem}
summary{cursor:pointer;font-weight:600;padding:.25rem 0}
.change{display:flex;gap:.75rem;align-items:flex-start}
.change p{margin:0}
.grid.two{grid-template-columns:repeat(auto-fit,minmax(280px,1fr))}
.point{padding:.75rem 0;border-top:1px solid var(--line)}
.point:first-of-type{border-top:0;padding-top:.25rem}
.point:last-child{padding-bottom:0}
.tag{display:inline-block;padding:.1rem .5rem;border-radius:99px;font-size:.75rem;font-weight:700;flex:none}
.tag.worse{background:#fde8e8;color:#8a1c1c}
.tag.better{background:#e7f6ec;color:#14532d}
.error-page{max-width:40rem}
.error-page ul{padding-left:1.25rem}
html.embed,body.embed{background:#fff}
.embed-card{display:flex;flex-direction:column;max-height:100vh;max-width:440px;margin:0 auto;padding:.85rem 1rem;overflow:hidden}
.embed-card h1{font-size:1rem;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;flex:none}
.embed-score{display:flex;align-items:center;flex-wrap:wrap;gap:.2rem .5rem;margin:.3rem 0 .5rem;flex:none}
.embed-score .big{font-size:1.9rem;font-weight:700;line-height:1}
.embed-score .muted{font-size:.875rem}
.embed-card ul{list-style:none;margin:0;padding:0;flex:0 1 auto;min-height:0;overflow:hidden}
.embed-card li{border-top:1px solid var(--line);padding:.5rem 0}
.embed-card .who{display:flex;align-items:center;gap:.4rem;margin:0;font-size:.875rem;white-space:nowrap;min-width:0}
.embed-card .who a{flex:0 1 auto;min-width:0;overflow:hidden;text-overflow:ellipsis;font-weight:600}
.embed-card .who time{flex:none;color:var(--muted);margin-left:auto}
.embed-card .excerpt{margin:.15rem 0 0;font-size:.875rem;line-height:1.4;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;line-clamp:3;overflow:hidden;overflow-wrap:anywhere}
.embed-card .more{flex:none;margin-top:.4rem;padding:.35rem 0;font-weight:600;align-self:flex-start}
`;

/** The icon of the pages (a star), also served at `/favicon.ico`. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#1d4ed8"/><path fill="#fbbf24" d="M12 4.2l2.3 4.8 5.2.7-3.8 3.7.9 5.2L12 16.1l-4.6 2.5.9-5.2-3.8-3.7 5.2-.7z"/></svg>';
