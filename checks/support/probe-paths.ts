/**
 * Shared by the discover checks: GETs root-relative paths without credential and keeps the hits — status 200 and a
 * body that plausibly is what the path names. A control request to a random path first: a catch-all that answers
 * 200 everywhere (an SPA) cannot make its body count as a hit (VulnAPI flagged every path of such sites, §1.3 #16–20).
 */
import { randomBytes } from 'node:crypto';
import type { CheckContext, ProbeResponse } from '../../scanner/api.js';

export interface PathProbe {
  /** Root-relative, without the leading slash (`.well-known/security.txt`). */
  path: string;
  /** Sent with the request but not part of the reported URL (`query=%7B__typename%7D`). */
  query?: string;
  plausible: (response: ProbeResponse) => boolean;
}

export interface PathHit {
  url: string;
  response: ProbeResponse;
}

/** In flight at once inside one check; the engine's per-host rate limit still applies to every request. */
const PARALLEL = 4;

export async function probePaths(ctx: CheckContext, probes: readonly PathProbe[]): Promise<PathHit[]> {
  const origin = new URL(ctx.operation.url).origin;
  const get = (path: string, query?: string): Promise<ProbeResponse> =>
    ctx.http.send({
      method: 'GET',
      url: new URL(`/${path}${query ? `?${query}` : ''}`, origin).href,
      credential: null,
      body: null,
    });
  const control = await get(`gatehouse-${randomBytes(8).toString('hex')}`);
  const catchAllBody = control.status === 200 ? control.body : undefined;
  const hits: PathHit[] = [];
  for (let i = 0; i < probes.length; i += PARALLEL) {
    const batch = probes.slice(i, i + PARALLEL);
    const responses = await Promise.all(batch.map((probe) => get(probe.path, probe.query)));
    batch.forEach((probe, j) => {
      const response = responses[j];
      if (response.status !== 200 || response.body === catchAllBody || !probe.plausible(response)) return;
      hits.push({ url: new URL(`/${probe.path}`, origin).href, response });
    });
  }
  return hits;
}

/** Reports one finding listing every hit and publishes their URLs as the fact `urls`. */
export function reportHits(ctx: CheckContext, issueId: string, hits: PathHit[]): void {
  ctx.setFact(
    'urls',
    hits.map((h) => h.url),
  );
  if (hits.length > 0) ctx.report(issueId, { detail: hits.map((h) => h.url).join(' '), attempt: hits[0].response });
}

// Plausibility predicates shared by the path lists.

export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const isHtml = (r: ProbeResponse): boolean =>
  (r.headers['content-type'] ?? '').includes('text/html') || /^\s*<(!doctype|html)/i.test(r.body);

/** A non-HTML body matching `pattern`: config files are never served as web pages. */
export const textLike =
  (pattern: RegExp) =>
  (r: ProbeResponse): boolean =>
    !isHtml(r) && pattern.test(r.body);

/** A JSON object having every listed key. */
export const jsonWith =
  (...keys: string[]) =>
  (r: ProbeResponse): boolean => {
    const value = jsonObject(r.body);
    return value !== undefined && keys.every((k) => k in value);
  };
