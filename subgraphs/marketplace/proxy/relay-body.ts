import type { Readable, Writable } from 'node:stream';

/**
 * Streams an upstream body to the caller with backpressure; resolves when the caller has it all.
 * An upstream error or an early caller disconnect destroys both sides (a truncated response must
 * never look complete) and rejects. Not `stream.pipeline`: it allocates an AbortController per
 * call and aborts it on success, and that DOMException (with its captured stack) alone cost about
 * 4% of the paid path's CPU.
 */
export function relayBody(body: Readable, res: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      body.destroy();
      res.destroy(error);
      reject(error);
    };
    body.once('error', fail);
    res.once('error', fail);
    res.once('finish', resolve);
    res.once('close', () => {
      if (!res.writableFinished) fail(new Error('The caller closed the connection before the body was relayed'));
    });
    body.pipe(res);
  });
}
