/** Strong entity tags from revisions and `If-Match` parsing (RFC 9110 §8.8.3, §13.1.1). */
import type { Response } from 'express';

export function etagOf(revision: number): string {
  return `"${revision}"`;
}

export function setEtag(res: Response, revision: number): void {
  res.setHeader('ETag', etagOf(revision));
}

/**
 * The revisions an `If-Match` header accepts, for the write filter: `undefined` when absent or `*` (the write
 * itself requires the resource to exist). Weak tags never match under strong comparison and unparseable members
 * match nothing, so such a header yields a list that no revision is in → 412.
 */
export function revisionsFromIfMatch(header: string | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const revisions: number[] = [];
  for (const member of value.split(',')) {
    const match = /^"(\d{1,15})"$/.exec(member.trim());
    if (match) revisions.push(Number(match[1]));
  }
  return revisions;
}
