/** The debugger's pages (server-rendered, inline styles, no script, no external assets). */
import { escapeHtml } from '../../lib/escape-html.js';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:60rem;margin:2rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}h2{font-size:1.05rem;margin-top:1.5rem}label{display:block;margin-top:.5rem}
select,input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}button{font:inherit;padding:.5rem 1rem;
border-radius:4px;border:1px solid #2456c7;background:#2456c7;color:#fff;margin-top:1rem}
pre{background:#f0f2f6;padding:.75rem;overflow:auto;font-size:13px;white-space:pre-wrap;word-break:break-all}
.error{color:#b3261e}small{color:#667}a{color:#2456c7}`;

function debuggerPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
<p><small>Gatehouse stub identity provider debugger — served with --enable-testing-api only.</small></p></main></body></html>`;
}

export interface DebuggerClientChoice {
  clientId: string;
  label: string;
}

export function startForm(options: {
  action: string;
  clients: DebuggerClientChoice[];
  issuer: string;
  error?: string;
}): string {
  const choices = options.clients
    .map((c) => `<option value="${escapeHtml(c.clientId)}">${escapeHtml(c.label)}</option>`)
    .join('');
  return debuggerPage(
    'OIDC debugger',
    `<p>Runs an authorization code flow with PKCE against <code>${escapeHtml(options.issuer)}</code> for the client you
pick, then shows the decoded ID and access tokens, the userinfo answer and the result of a refresh.</p>
${options.error ? `<p class="error">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
<label for="client_id">Client</label><select id="client_id" name="client_id">${choices}</select>
<label for="scope">Scope</label><input id="scope" name="scope" value="openid profile email offline_access">
<label for="login_hint">login_hint (optional)</label><input id="login_hint" name="login_hint" value="">
<button type="submit">Start the flow</button>
</form>`,
  );
}

function section(title: string, value: unknown, id: string): string {
  return `<h2>${escapeHtml(title)}</h2><pre id="${escapeHtml(id)}">${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}</pre>`;
}

export function resultPage(options: {
  restart: string;
  sections: { title: string; id: string; value: unknown }[];
}): string {
  return debuggerPage(
    'OIDC debugger: result',
    `${options.sections.map((s) => section(s.title, s.value, s.id)).join('\n')}
<p><a href="${escapeHtml(options.restart)}">Run another flow</a></p>`,
  );
}
