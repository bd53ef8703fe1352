/** The HTML report's style sheet, inlined: the file reads offline and fetches nothing. */
export const HTML_STYLE = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --code: #f3f4f6; }
@media (prefers-color-scheme: dark) { :root { --muted: #9ca3af; --line: #374151; --code: #111827; } }
body { font: 15px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: 0.2rem; margin-top: 2.5rem; }
h3 { margin: 0 0 0.3rem; font-size: 1.05rem; }
.meta, .muted { color: var(--muted); }
.advice { font-weight: 600; padding: 0.6rem 0.8rem; border-left: 4px solid var(--line); }
.counts span { display: inline-block; margin-right: 1rem; }
.finding { border: 1px solid var(--line); border-radius: 6px; padding: 0.8rem 1rem; margin: 1rem 0; }
.badge { display: inline-block; min-width: 4.5rem; text-align: center; border-radius: 4px; padding: 0 0.4rem;
  font-weight: 600; color: #fff; margin-right: 0.4rem; }
.Critical { background: #7f1d1d; } .High { background: #b91c1c; } .Medium { background: #c2410c; }
.Low { background: #a16207; } .Info { background: #4b5563; } .Suppressed { background: #374151; }
pre { background: var(--code); padding: 0.6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all;
  font-size: 13px; margin: 0.3rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; margin: 0.4rem 0; }
dt { color: var(--muted); } dd { margin: 0; }
table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid var(--line); text-align: left;
  padding: 0.2rem 0.5rem; vertical-align: top; }
`;
