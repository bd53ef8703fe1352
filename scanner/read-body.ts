/**
 * Reads a response body from an untrusted target without letting it decide the scanner's memory (docs/architecture.md
 * §2.10, hostile input): decoded (gzip, deflate, br) here rather than by got, so the bytes on the wire and the decoded
 * bytes are both counted; reading stops at `--max-body` decoded bytes, or once the body decodes to more than
 * `MAX_DECOMPRESSION_RATIO` times what was received (a compression bomb); the rest is discarded (the socket closed)
 * and the reason kept, so evidence says the body was cut.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';

/** `--max-body` default: 5 MiB of decoded body per response. */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Ordinary text compresses 5–20×; a bomb compresses 1000×. Judged only past `RATIO_GRACE_BYTES` decoded. */
const MAX_DECOMPRESSION_RATIO = 200;
const RATIO_GRACE_BYTES = 1024 * 1024;

export interface ReadBody {
  body: string;
  /** Why the body was cut, when it was (said in the evidence). */
  truncated?: string;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip();
  if (coding === 'deflate') return createInflate();
  if (coding === 'br') return createBrotliDecompress();
  return undefined;
}

const size = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** Reads `raw` (the body as received) to at most `maxBytes` decoded bytes; never throws for a cut. */
export async function readBody(
  raw: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<ReadBody> {
  const decoder = decoderFor(contentEncoding);
  let received = 0;
  raw.on('data', (chunk: Buffer) => (received += chunk.length));
  const decoded: Readable = decoder ? raw.pipe(decoder) : raw;
  // A decoding error (a corrupt or cut gzip stream) surfaces on the decoder: the raw stream's errors end the read too.
  if (decoder) raw.once('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated: string | undefined;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      const room = maxBytes - kept;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        kept += room;
        truncated = `body cut at ${size(maxBytes)} (--max-body); the rest was not read`;
        break;
      }
      chunks.push(chunk);
      kept += chunk.length;
      if (decoder && kept > RATIO_GRACE_BYTES && kept > received * MAX_DECOMPRESSION_RATIO) {
        truncated = `body cut at ${size(kept)}: it decompressed to more than ${MAX_DECOMPRESSION_RATIO} times the ${size(received)} received (a compression bomb); the rest was not read`;
        break;
      }
    }
  } catch (error) {
    // An empty body labelled gzip (a HEAD answer, a 204 behind some proxies) is no stream to decode: it is empty.
    if (!(decoder && received === 0)) throw error;
  } finally {
    raw.destroy();
    decoder?.destroy();
  }
  return { body: Buffer.concat(chunks).toString('utf8'), ...(truncated ? { truncated } : {}) };
}
