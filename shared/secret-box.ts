import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from './errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets we must read back (upstream API keys): `v1.<iv>.<tag>.<ciphertext>`,
 * base64url parts. A wrong key or any altered byte fails authentication and throws.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('SecretBox needs a 32-byte key (64 hex characters)');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw secretUnreadable();
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    // A shortened tag would make a forgery that many times easier: only the full 16 bytes we write are accepted.
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw secretUnreadable();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw secretUnreadable();
    }
  }
}

const secretUnreadable = () => new AppError(500, 'secret_unreadable', 'A stored secret could not be decrypted');

const boxes = new Map<string, SecretBox>();

/** The platform's box for secrets it must read back (SECRETS_KEY), one per key. */
export function secretBoxOf(services: { config: { secrets: { SECRETS_KEY: string } } }): SecretBox {
  const key = services.config.secrets.SECRETS_KEY;
  let box = boxes.get(key);
  if (!box) boxes.set(key, (box = new SecretBox(key)));
  return box;
}
