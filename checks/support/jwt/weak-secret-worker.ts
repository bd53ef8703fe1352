/**
 * Worker thread of `jwt.weak_secret`: HMACs the token's original signing input with every candidate secret and
 * compares with its signature (RFC 7518 §3.2), off the main thread so a large `--jwt-secrets-file` never stalls a scan.
 */
import { createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parentPort, workerData } from 'node:worker_threads';

export interface CrackJob {
  hash: 'sha256' | 'sha384' | 'sha512';
  signingInput: string;
  /** The token's signature, base64url. */
  signature: string;
  /** Built-in candidates, tried first. */
  candidates: string[];
  /** Files with one candidate per line (SecLists format), tried in order. */
  files: string[];
}

export interface CrackOutcome {
  tried: number;
  /** Where the secret was found: `built-in` with its index, or the file with its 1-based line number. */
  match?: { secret: string; source: string; line: number };
  error?: string;
}

function crack(job: CrackJob): Promise<CrackOutcome> | CrackOutcome {
  const expected = Buffer.from(job.signature, 'base64url');
  const input = Buffer.from(job.signingInput);
  let tried = 0;
  const matches = (candidate: string): boolean => {
    tried += 1;
    return createHmac(job.hash, candidate).update(input).digest().equals(expected);
  };
  for (const [index, candidate] of job.candidates.entries()) {
    if (matches(candidate)) return { tried, match: { secret: candidate, source: 'built-in', line: index + 1 } };
  }
  return (async () => {
    for (const file of job.files) {
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      let line = 0;
      for await (const text of lines) {
        line += 1;
        // Blank lines are not candidates: a blank secret is jwt.blank_secret's finding.
        if (text.length > 0 && matches(text)) {
          lines.close();
          return { tried, match: { secret: text, source: file, line } };
        }
      }
    }
    return { tried };
  })();
}

if (parentPort) {
  const port = parentPort;
  Promise.resolve()
    .then(() => crack(workerData as CrackJob))
    .then(
      (outcome) => port.postMessage(outcome),
      (error: unknown) =>
        port.postMessage({
          tried: 0,
          error: error instanceof Error ? error.message : String(error),
        } satisfies CrackOutcome),
    );
}
