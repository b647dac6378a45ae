import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';

interface Delivered {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let t: TestPlatform;
const delivered: Delivered[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await startTestPlatform({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Platform <no-reply@platform.test>' });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

describe('mail over SMTP', () => {
  it('delivers the verification mail to SMTP_URL from MAIL_FROM, and writes no file', async () => {
    const email = uniqueEmail('smtp');
    expect((await t.api.post('/auth/signup', { email, password: PASSWORD })).status).toBe(201);
    const mail = delivered.find((entry) => entry.to.includes(email));
    expect(mail?.from).toBe('no-reply@platform.test');
    const body = mail!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toMatch(/http:\/\/app\.test\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    expect(t.mailbox.all()).toHaveLength(0);
  });
});
