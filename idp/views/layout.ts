/** The page frame shared by the login, consent, logout and error pages: inline styles, no external assets. */
import { escapeHtml } from '../../lib/escape-html.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}button{font:inherit;padding:.5rem 1rem;border-radius:4px;border:1px solid #2456c7;
background:#2456c7;color:#fff;cursor:pointer;margin:.25rem .25rem .25rem 0}button.secondary{background:#fff;color:#2456c7}
input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box;margin:.25rem 0 .75rem}.error{color:#b3261e}
code{background:#eef;padding:0 .2rem}ul{padding-left:1.2rem}small{color:#667}`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
<p><small>Gatehouse stub identity provider — for development and testing only.</small></p></main></body></html>`;
}
