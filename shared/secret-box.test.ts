import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box.js';

const key = () => randomBytes(32).toString('hex');

describe('SecretBox', () => {
  it('decrypts what it encrypted, with a fresh nonce every time', () => {
    const box = new SecretBox(key());
    const first = box.encrypt('sk_live_upstream');
    expect(first).not.toContain('sk_live_upstream');
    expect(box.encrypt('sk_live_upstream')).not.toBe(first);
    expect(box.decrypt(first)).toBe('sk_live_upstream');
  });

  it('refuses a ciphertext whose bytes were altered', () => {
    const box = new SecretBox(key());
    const [version, iv, tag, data] = box.encrypt('secret').split('.');
    const bytes = Buffer.from(data!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    expect(() => box.decrypt([version, iv, tag, bytes.toString('base64url')].join('.'))).toThrow('could not be decrypted');
  });

  it('refuses a ciphertext sealed with another key, and garbage', () => {
    const sealed = new SecretBox(key()).encrypt('secret');
    expect(() => new SecretBox(key()).decrypt(sealed)).toThrow('could not be decrypted');
    expect(() => new SecretBox(key()).decrypt('nonsense')).toThrow('could not be decrypted');
  });

  it('refuses a shortened tag (GCM would check only its first bytes, making a forgery far easier) and a short nonce', () => {
    const box = new SecretBox(key());
    const [version, iv, tag, data] = box.encrypt('hello').split('.');
    const short = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.decrypt([version, iv, short, data].join('.'))).toThrow('could not be decrypted');
    const shortIv = Buffer.from(iv!, 'base64url').subarray(0, 8).toString('base64url');
    expect(() => box.decrypt([version, shortIv, tag, data].join('.'))).toThrow('could not be decrypted');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox('abcd')).toThrow('32-byte');
  });
});
