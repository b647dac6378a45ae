import type { Response } from 'express';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: unknown) => String(text ?? '').replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** Tagged template: every interpolated value is escaped unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const piece = (value: unknown): string =>
    value instanceof Html ? value.text : Array.isArray(value) ? value.map(piece).join('') : escapeHtml(value);
  return new Html(strings.reduce((out, string, index) => out + string + (index < values.length ? piece(values[index]) : ''), ''));
}

/**
 * The pages' own policy: everything from this origin, nothing inline but styles (the GraphQL IDE
 * sets some), forms only to this origin, no framing, no referrer (a page's URL may carry a token).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function sendPage(res: Response, status: number, title: string, body: Html, options: { head?: Html; bare?: boolean } = {}): void {
  res.status(status);
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.type('html');
  const main = options.bare ? body : html`<main>${body}</main>
<footer><a href="/">Home</a> · <a href="/docs">REST reference</a> · <a href="/graphql">GraphQL IDE</a> · <a href="/llms.txt">llms.txt</a></footer>`;
  res.send(
    html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/pages.css">
${options.head ?? ''}
</head>
<body>${main}</body>
</html>`.text,
  );
}
