import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs; credentials are redacted wherever they could appear. Written synchronously, as
 * console.log is: the platform logs events, not requests, and pino's asynchronous default could
 * lose, or reorder, the last lines before an exit (why a stop failed, what crashed).
 */
export function createLogger(level: string): Logger {
  const options = {
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
  };
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
