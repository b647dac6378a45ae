import { once, type EventEmitter } from 'node:events';
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { settledWithin } from './timing.js';

export type { Logger };

/**
 * Structured logs; credentials are redacted wherever they could appear. JSON lines for machines;
 * on a terminal (stdout a TTY), the same records made readable, written synchronously so a line
 * logged just before exit is not lost.
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  const readable = options.pretty ?? Boolean(process.stdout.isTTY);
  const destination = readable ? pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : undefined;
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-payment"]',
        'req.headers["payment-signature"]',
        'req.headers["x-internal-identity"]',
        'headers.authorization',
        '*.password',
        '*.token',
        '*.apiKey',
        '*.api_key',
        '*.refreshToken',
        '*.refresh_token',
        '*.accessToken',
        '*.access_token',
      ],
      censor: '[redacted]',
    },
  }, destination);
}

/**
 * Resolves once the lines logged so far have reached stdout, or after `timeoutMs`. pino writes
 * asynchronously (a log line per request must never block on a slow reader); exiting with a write
 * still in flight could lose the last lines (why a stop failed) or let a later one overtake it.
 */
async function logsWritten(log: Logger, timeoutMs = 1_000): Promise<void> {
  // SonicBoom, pino's destination, says whether a write is in flight only through this field; it emits 'drain' when all is written.
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as (EventEmitter & { _writing?: boolean }) | undefined;
  if (!stream?._writing) return;
  await settledWithin(once(stream, 'drain'), timeoutMs);
}

/** Exits once the last lines are written (at most a second later). */
export const exitAfterLogs = (log: Logger, code: number): void => void logsWritten(log).finally(() => process.exit(code));
