import type { Readable, Writable } from 'node:stream';

/** The relay stopped because the caller went away, not because the upstream failed. */
export class CallerGone extends Error {
  constructor() {
    super('The caller closed the connection before the body was relayed');
  }
}

/** The upstream's body failed midway; `bytesRelayed` of it had reached the caller. */
export class UpstreamBrokeOff extends Error {
  constructor(
    readonly bytesRelayed: number,
    cause: unknown,
  ) {
    super('The upstream broke off its answer', { cause });
  }
}

/**
 * Streams an upstream body to the caller with backpressure; resolves when the caller has it all.
 * An upstream error or an early caller disconnect destroys both sides (a truncated response must
 * never look complete) and rejects: with CallerGone when the caller left first, else with
 * UpstreamBrokeOff. Either side may already have ended while the call was being charged. Not
 * `stream.pipeline`: it allocates an AbortController per call and aborts it on success, and that
 * DOMException (with its captured stack) alone cost about 4% of the paid path's CPU.
 */
export function relayBody(body: Readable, res: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let bytesRelayed = 0;
    const fail = (error: Error) => {
      body.destroy();
      res.destroy(error);
      reject(error);
    };
    if (res.destroyed) return fail(new CallerGone());
    if (body.errored || (body.destroyed && !body.readableEnded)) return fail(new UpstreamBrokeOff(0, body.errored));
    body.on('data', (chunk: Buffer) => void (bytesRelayed += chunk.length));
    body.once('error', (error) => fail(new UpstreamBrokeOff(bytesRelayed, error)));
    res.once('error', () => fail(new CallerGone()));
    res.once('finish', resolve);
    res.once('close', () => {
      if (!res.writableFinished) fail(new CallerGone());
    });
    body.pipe(res);
  });
}
