/** Reads wrangler.jsonc (JSON with comments) so the dev server and tests use what a deployment would. */
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../lib/project-root.js';

export interface WranglerConfig {
  main: string;
  no_bundle?: boolean;
  compatibility_date: string;
  compatibility_flags: string[];
  d1_databases: { binding: string; database_name: string }[];
  vars?: Record<string, string | number | boolean>;
}

/** Drops // and /* *\/ comments outside strings, and trailing commas. */
export function stripJsonComments(text: string): string {
  return text
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
}

export function readWranglerConfig(path = fromRoot('wrangler.jsonc')): WranglerConfig {
  return JSON.parse(stripJsonComments(readFileSync(path, 'utf8'))) as WranglerConfig;
}
