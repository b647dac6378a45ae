import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured logs; credentials are redacted wherever they could appear. */
export function createLogger(level: string): Logger {
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
  });
}
