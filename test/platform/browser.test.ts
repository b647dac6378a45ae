import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PASSWORD, registerAgent, uniqueEmail } from '../support/accounts.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';

/** Debian's chromium package (`.ci/run` installs it); without it this file is skipped, saying why. */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const available = existsSync(CHROMIUM);
if (!available) console.log(`browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)`);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** What a page's console and network said that means something was refused or missing. */
const blocked: string[] = [];
function watch(page: Page): Page {
  page.on('console', (message) => {
    if (message.type() === 'error' || /Refused|blocked|Content Security Policy/i.test(message.text())) blocked.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => blocked.push(`${page.url()}: ${error.message}`));
  page.on('requestfailed', (request) => blocked.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) blocked.push(`${response.url()} ${response.status()}: ${(await response.text().catch(() => '')).slice(0, 300)} <- ${response.request().postData()?.slice(0, 300)}`);
  });
  return page;
}

let t: TestPlatform;
let browser: BrowserContext;
let profile: string;
beforeAll(async () => {
  if (!available) return;
  const port = await freePort();
  // The mail's link must open this very platform: PUBLIC_URL is its own address.
  t = await startTestPlatform({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  profile = mkdtempSync(path.join(tmpdir(), 'acp-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
}, 60_000);
afterAll(async () => {
  if (!available) return;
  await browser?.close();
  rmSync(profile, { recursive: true, force: true });
  await t?.close();
});

(available ? describe : describe.skip)('in a real browser', () => {
  it('the GraphQL IDE loads from this origin, shows the schema docs and runs a query', async () => {
    const agent = await registerAgent(t);
    const publisher = await createPublisher(t, agent.api_key);
    const page = watch(await browser.newPage());
    await page.goto(`${t.platform.url}/graphql`);
    await page.waitForSelector('.graphiql-container');
    // CodeMirror's own API, as typing would be (its auto-closed brackets aside).
    await page.locator('.graphiql-query-editor .CodeMirror').evaluate((editor: any) => editor.CodeMirror.setValue('query Publishers { publishers(input: { limit: 5 }) { slug name } }'));
    await page.click('.graphiql-execute-button');
    await page.locator('.graphiql-response').getByText(publisher.slug).waitFor();
    await page.click('[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer');
    expect(await page.textContent('.graphiql-doc-explorer')).toContain('Query');
    await page.close();
  }, 60_000);

  it('/docs renders the REST reference', async () => {
    const page = watch(await browser.newPage());
    await page.goto(`${t.platform.url}/docs`);
    expect(await page.textContent('h1')).toBe('REST reference');
    expect(await page.getByText('/wallet/dev-credits', { exact: true }).isVisible()).toBe(true);
    await page.close();
  });

  it('the verification link of a real mail, opened and confirmed with its button, verifies the address', async () => {
    const email = uniqueEmail('browser');
    await t.api.post('/auth/signup', { email, password: PASSWORD });
    const link = await t.mailbox.waitForLink(email, 'verify-email');
    const page = watch(await browser.newPage());
    await page.goto(link);
    await page.click('button[type=submit]');
    await page.waitForSelector('#outcome');
    expect(await page.textContent('#outcome')).toBe(`${email} is confirmed.`);
    expect((await t.api.post('/auth/login', { email, password: PASSWORD })).status).toBe(200);
    await page.close();
  });

  it('no page had a resource blocked or failing', () => {
    expect(blocked).toEqual([]);
  });
});
