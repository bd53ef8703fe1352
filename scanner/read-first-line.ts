/** The first line of standard input when it is not a terminal, or undefined after `timeoutMs` — never a hang. */
import type { Readable } from 'node:stream';

export function readFirstLine(stream: Readable & { isTTY?: boolean }, timeoutMs: number): Promise<string | undefined> {
  if (stream.isTTY) return Promise.resolve(undefined);
  return new Promise((resolvePromise) => {
    let buffer = '';
    const finish = (value: string | undefined): void => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
      stream.pause();
      resolvePromise(value?.trim() ? value.trim() : undefined);
    };
    const onData = (chunk: Buffer | string): void => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) finish(buffer.slice(0, newline));
    };
    const onEnd = (): void => finish(buffer);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onEnd);
  });
}
