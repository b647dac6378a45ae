import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random URL-safe token with the given number of bytes of entropy (default 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Secrets (refresh tokens, API keys, one-time codes) are stored as SHA-256 digests: they are high-entropy already. */
export function sha256Hex(value: string): string {
  // The one-shot hash is about 2.5× faster than a Hash object; it runs several times per paid call.
  return hash('sha256', value, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Uniformly random uppercase alphanumeric code (rejection sampling: no modulo bias). */
export function randomUppercaseCode(length: number): string {
  let code = '';
  while (code.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 252 && code.length < length) code += ALPHANUMERIC[byte % 36];
    }
  }
  return code;
}
