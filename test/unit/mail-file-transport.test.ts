import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createMailer } from '../../shared/mail.js';
import type { Logger } from '../../shared/logger.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-mail-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Sends one mail through the file transport (no SMTP_URL) and returns what was logged. */
async function sendLogged(production: boolean): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) });
  const mailer = createMailer({ from: 'platform@example.test', dataDir, log: pino({ level: 'info' }, sink) as unknown as Logger, production });
  await mailer.send({ to: 'someone@example.test', subject: 'Reset your password', text: 'https://acp.test/reset-password?token=SECRET', link: 'https://acp.test/reset-password?token=SECRET' });
  mailer.close();
  return JSON.parse(lines[0]!);
}

describe('mail without SMTP_URL', () => {
  it('writes each mail under DATA_DIR/mail; logs its link for a developer to click, but never in production', async () => {
    expect(await sendLogged(false)).toMatchObject({ msg: 'mail written (no SMTP_URL set)', link: 'https://acp.test/reset-password?token=SECRET' });
    const logged = await sendLogged(true);
    expect(logged.msg).toBe('mail written (no SMTP_URL set)');
    expect(JSON.stringify(logged)).not.toContain('SECRET');
    const files = readdirSync(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(2);
    expect(readFileSync(path.join(dataDir, 'mail', files[0]!), 'utf8')).toContain('Subject: Reset your password');
  });
});
