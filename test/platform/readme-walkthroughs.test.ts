import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

/** The README's walkthroughs: each ```sh block right after a `<!-- walkthrough -->` line, in order. */
const walkthroughs = [...readFileSync(new URL('../../README.md', import.meta.url), 'utf8').matchAll(/<!-- walkthrough -->\n```sh\n([\s\S]*?)```/g)].map(
  (match) => match[1]!,
);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Runs the blocks in one bash session, as a reader pasting them one after another would; each block's output apart. */
function runInBash(blocks: string[]): Promise<{ code: number | null; outputs: string[]; stderr: string }> {
  const separator = '=====walkthrough=====';
  const script = `set -u\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n${blocks.map((block) => `${block}\necho; echo ${separator}`).join('\n')}`;
  return new Promise((resolve) => {
    const bash = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk) => (stdout += chunk));
    bash.stderr.on('data', (chunk) => (stderr += chunk));
    bash.on('close', (code) => resolve({ code, outputs: stdout.split(separator), stderr }));
  });
}

/** The JSON answers in a block's output, in order (curl prints them one after another, without newlines). */
const answersIn = (output: string) =>
  output
    .split(/(?<=\})\s*(?=\{)/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.startsWith('{"data"'))
    .map((piece) => JSON.parse(piece));

let t: TestPlatform;
beforeAll(async () => {
  // A development platform, as `npm start` runs it: loopback upstreams and development credits need no setting.
  t = await startTestPlatform({ NODE_ENV: 'development' });
});
afterAll(() => t.close());

describe('the README walkthroughs, run as written', () => {
  it('publish an API and call it through the proxy; fund an agent, pay, read the charge; query with GraphQL', async () => {
    expect(walkthroughs).toHaveLength(3);
    const apiPort = await freePort();
    const platformAddress = new URL(t.platform.url).host;
    // Only the addresses change: the platform's port (4000 in the README) and the local API's (8000).
    const blocks = walkthroughs.map((block) => block.replaceAll('localhost:4000', platformAddress).replaceAll('8000', String(apiPort)));
    const { code, outputs, stderr } = await runInBash(blocks);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const [publish, pay, graphql] = outputs;

    expect(publish).toContain('"slug":"my-api"');
    expect(publish).toMatch(/"type":"development_credit"/);
    expect(publish).toMatch(/HTTP\/1\.1 200 OK/);
    expect(publish).toMatch(/x-charge-amount: 0\.001/i);
    expect(publish).toContain('{"hello":"world","path":"/hello"}');

    expect(pay).toContain('{"hello":"world","path":"/quote"}');
    const transactions = answersIn(pay!).pop().data;
    expect(transactions.map((transaction: any) => transaction.type)).toEqual(['charge', 'development_credit']);
    expect(transactions[0]).toMatchObject({ direction: 'debit', metadata: { publisher_slug: 'my-api', endpoint: 'GET /quote' } });

    const [catalogue, wallet] = answersIn(graphql!);
    expect(catalogue.data.publishers).toContainEqual(expect.objectContaining({ slug: 'my-api' }));
    expect(wallet.data.walletTransactions.map((transaction: any) => transaction.type)).toEqual(['charge', 'development_credit']);
    expect(Number(wallet.data.wallet.balance)).toBeLessThan(5);
  }, 60_000);
});
