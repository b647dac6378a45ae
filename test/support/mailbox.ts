import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

function decodeQuotedPrintable(body: string): string {
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function parseMail(raw: string): ReceivedMail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head ?? '')?.[1]?.trim() ?? '';
  let text = rest.join('\n\n');
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) text = decodeQuotedPrintable(text);
  if (/base64/i.test(header('Content-Transfer-Encoding'))) text = Buffer.from(text, 'base64').toString('utf8');
  return { to: header('To'), subject: header('Subject'), text, links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]) };
}

/** Reads the .eml files the platform writes under DATA_DIR/mail when no SMTP_URL is set. */
export class Mailbox {
  constructor(private readonly dataDir: string) {}

  all(): ReceivedMail[] {
    const dir = path.join(this.dataDir, 'mail');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]) || a.localeCompare(b, undefined, { numeric: true }))
      .map((file) => parseMail(readFileSync(path.join(dir, file), 'utf8')));
  }

  to(address: string): ReceivedMail[] {
    return this.all().filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
  }

  /** Waits for a mail to `address` whose link goes to `page` (mails may be sent after the answer). */
  async waitForLink(address: string, page: string, count = 1, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const links = this.to(address).flatMap((mail) => mail.links).filter((link) => link.includes(`/${page}?`));
      if (links.length >= count) return links[links.length - 1]!;
      if (Date.now() > deadline) throw new Error(`No ${page} mail to ${address} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async waitForToken(address: string, page: string, count = 1): Promise<string> {
    return new URL(await this.waitForLink(address, page, count)).searchParams.get('token')!;
  }
}
