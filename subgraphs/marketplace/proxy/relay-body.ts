import type { Readable, Writable } from 'node:stream';

/** The relay stopped because the caller went away, not because the upstream failed. */
export class CallerGone extends Error {
  constructor() {
    super('The caller closed the connection before the body was relayed');
  }
}

/**
 * Streams an upstream body to the caller with backpressure; resolves when the caller has it all.
 * An upstream error or an early caller disconnect destroys both sides (a truncated response must
 * never look complete) and rejects: with CallerGone when the caller left first, else with the
 * upstream's error. Not `stream.pipeline`: it allocates an AbortController per
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
    res.once('error', () => fail(new CallerGone()));
    res.once('finish', resolve);
    res.once('close', () => {
      if (!res.writableFinished) fail(new CallerGone());
    });
    body.pipe(res);
  });
}
