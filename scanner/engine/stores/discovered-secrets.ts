/**
 * Values checks found during the scan that work as credentials (`ctx.redact`: a password a login accepted, the token
 * it answered with): redacted from every result of the scan when it ends (redact-results.ts), in each form a
 * report could hold them — as is, JSON-escaped, URL-encoded (as a URL and a form write it).
 */
import { scannerError } from '../../errors.js';

/** Short values would redact innocent text everywhere (scanner/secrets.ts keeps the same floor for credentials). */
const MIN_SECRET_LENGTH = 4;

export interface DiscoveredSecrets {
  add(value: string, checkId: string): void;
  /** Every form of every value, longest first (a whole token before a part of it). */
  forms(): string[];
}

export function createDiscoveredSecrets(): DiscoveredSecrets {
  const values = new Set<string>();
  return {
    add(value, checkId) {
      // The message never quotes the value: an error's text lands in the report.
      if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH)
        throw scannerError(
          'invalid_check',
          `${checkId}: ctx.redact takes a string of ${MIN_SECRET_LENGTH} characters or more (shorter values would redact innocent text; keep them out of the evidence)`,
        );
      values.add(value);
    },
    forms() {
      const forms = new Set<string>();
      for (const value of values) {
        forms.add(value);
        forms.add(JSON.stringify(value).slice(1, -1));
        forms.add(encodeURIComponent(value));
        // A form body writes a space as `+`.
        forms.add(new URLSearchParams({ v: value }).toString().slice(2));
      }
      return [...forms].sort((a, b) => b.length - a.length);
    },
  };
}
