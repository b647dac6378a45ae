import { PassThrough, type Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';

/** What is read off and dropped to keep a connection usable after an early answer; a longer rest closes it. */
export const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;

/**
 * A request answered before its body was read whole (a refusal, an upstream that could not be
 * reached while the body was being relayed) would leave the rest of the body in the connection,
 * and the next request on that keep-alive connection would wait behind it for ever. Once the answer
 * is out, the rest is read and dropped, up to MAX_DISCARDED_BYTES; beyond that, or when the request
 * stream was destroyed (nothing can read it any more), the connection is closed. Node does this
 * itself only for a body nobody had started reading.
 */
export function discardUnreadBodies(req: Request, res: Response, next: NextFunction): void {
  res.once('finish', () => {
    if (req.complete || req.socket.destroyed) return;
    if (req.destroyed) return void req.socket.destroy();
    req.unpipe();
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BYTES) req.socket.destroy();
    });
    req.resume();
  });
  next();
}

/**
 * The caller's body as a stream another client may consume and destroy (an upstream request that
 * failed) without destroying the caller's request, whose unread rest is then discarded and its
 * connection kept. A caller that goes away mid-body ends it with an error.
 */
export function detachableBody(req: Readable): Readable {
  const body = new PassThrough();
  req.pipe(body);
  req.once('close', () => {
    if (!req.readableEnded) body.destroy(new Error('The caller closed its request before its body ended'));
  });
  return body;
}
