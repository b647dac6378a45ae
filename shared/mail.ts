import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from './logger.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail exists to deliver; logged outside production so it can be clicked. */
  link?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * nodemailer to SMTP_URL; without one, each mail is written as an .eml file under DATA_DIR/mail
 * (nodemailer's stream transport renders it) and, unless `production`, its link is logged: the
 * link carries a token that signs in or resets a password, and production logs travel far.
 */
export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: Logger; production: boolean }): Mailer {
  const { smtpUrl, from, dataDir, log, production } = options;
  if (smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const mailDir = path.join(dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      mkdirSync(mailDir, { recursive: true });
      const safeRecipient = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(mailDir, `${Date.now()}-${process.pid}-${++sequence}-${safeRecipient}.eml`);
      writeFileSync(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file, ...(production ? {} : { link: mail.link }) }, 'mail written (no SMTP_URL set)');
    },
    close: () => transport.close(),
  };
}
