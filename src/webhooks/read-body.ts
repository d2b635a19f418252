import type { IncomingMessage } from 'node:http';

/** The body was larger than the cap: answered 413 before any of it is looked at. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * The raw body, up to `maxBytes`. A declared Content-Length over the cap is refused before a byte is
 * read; a body that grows past it stops being kept at once (the rest is drained, not stored, so the
 * answer can still be written).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(`over ${maxBytes} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      req.resume();
      reject(new BodyTooLargeError(`over ${maxBytes} bytes`));
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('error', reject);
  });
}
