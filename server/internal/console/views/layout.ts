/** The frame of every console page: navigation, the signed-in reviewer with a sign-out form, flash messages. */
import { escapeHtml } from '../../../../lib/escape-html.js';

export interface PageContext {
  /** Where the console is mounted (`req.baseUrl`), prefixed to every link. */
  base: string;
  csrf: string;
  user?: { sub: string; name?: string; roles: readonly string[] };
  flash?: string;
}

type Section = 'queue' | 'audit' | 'access' | 'none';

const NAV: ReadonlyArray<[Exclude<Section, 'none'>, string, string]> = [
  ['queue', '', 'Review queue'],
  ['audit', '/audit', 'Audit history'],
  ['access', '/access', 'API Access'],
];

/** A hidden CSRF field for a form (every state-changing form carries one). */
export function csrfField(ctx: PageContext): string {
  return `<input type="hidden" name="_csrf" value="${escapeHtml(ctx.csrf)}">`;
}

export function layout(ctx: PageContext, title: string, section: Section, body: string): string {
  const nav = ctx.user
    ? NAV.map(
        ([id, path, label]) =>
          `<a href="${escapeHtml(`${ctx.base}${path}` || '/')}"${id === section ? ' aria-current="page"' : ''}>${label}</a>`,
      ).join('')
    : '';
  const who = ctx.user
    ? `<div class="who"><span>${escapeHtml(ctx.user.name ?? ctx.user.sub)} <span class="muted">(${escapeHtml(ctx.user.roles.join(', '))})</span></span>
<form class="inline" method="post" action="${escapeHtml(ctx.base)}/logout">${csrfField(ctx)}<button type="submit">Sign out</button></form></div>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse review</title>
<link rel="stylesheet" href="${escapeHtml(ctx.base)}/console.css"></head>
<body><header class="top"><span class="brand">Gatehouse review</span><nav>${nav}</nav>${who}</header>
<main>${ctx.flash ? `<p class="flash" role="status">${escapeHtml(ctx.flash)}</p>` : ''}${body}</main></body></html>`;
}

export function statusBadge(status: string): string {
  return `<span class="badge ${escapeHtml(status)}">${escapeHtml(status.replace(/_/g, ' '))}</span>`;
}

export function formatTime(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/:\d\d\.\d+Z$/, ' UTC');
}
