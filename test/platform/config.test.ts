import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../shared/config.js';

const made: string[] = [];
const dataDir = () => {
  made.push(mkdtempSync(path.join(tmpdir(), 'acp-config-')));
  return made.at(-1)!;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('in production, settings for development and testnets stop the start', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(32), INTERNAL_SECRET: 'i'.repeat(32), SECRETS_KEY: 'a'.repeat(64) };
    expect(() => loadConfig({ ...production, PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true' })).toThrow(/PROXY_ALLOW_PRIVATE_UPSTREAMS: not in production/);
    expect(() => loadConfig({ ...production, X402_SETTLEMENT: 'verify-only', X402_NETWORK: 'base' })).toThrow(/X402_SETTLEMENT: verify-only on Base mainnet/);
    expect(loadConfig({ ...production, X402_SETTLEMENT: 'verify-only', X402_NETWORK: 'base-sepolia' }).x402.settlement).toBe('verify-only');
  });

  it('in production, a missing secret stops the start with a message naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(/JWT_SECRET/);
  });

  it('in development, secrets are generated once and kept in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.secrets.JWT_SECRET).toHaveLength(64);
    expect(second.secrets).toEqual(first.secrets);
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')).JWT_SECRET).toBe(first.secrets.JWT_SECRET);
  });

  it('validates values and defaults the rest', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: '4321', SUBGRAPH_ACCOUNTS_URL: 'http://127.0.0.1:5001/graphql' });
    expect(config).toMatchObject({ port: 4321, host: '127.0.0.1', publicUrl: 'http://localhost:4321' });
    expect(config.subgraphUrls).toEqual({ accounts: 'http://127.0.0.1:5001/graphql' });
  });

  it('trusts forwarded addresses only from the proxies named: true is one hop, never every X-Forwarded-For entry', () => {
    const trust = (value?: string) => loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
    expect(trust('yes')).toBe(1);
    expect(() => trust('sometimes')).toThrow(/TRUST_PROXY/);
    expect(trust('fd00::/8')).toEqual(['fd00::/8']);
    for (const broken of ['10.0.0.0/99', '10.0.0.0/abc', '10.0.0.0/8/1', '0.0.0.0/0', '::/0', '1.2.3.4/00']) expect(() => trust(broken)).toThrow(/TRUST_PROXY/);
  });

  it('never lets a paid call’s hold expire before the call can have ended: 16 proxy timeouts at least', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).proxy.holdExpirySeconds).toBe(600);
    expect(loadConfig({ DATA_DIR: dataDir(), PROXY_TIMEOUT_MS: '300000', PROXY_HOLD_EXPIRY_SECONDS: '600' }).proxy.holdExpirySeconds).toBe(4800);
  });

  it('takes the upstream origins allowed as a list of URLs, refusing anything else as a setting', () => {
    const origins = (value: string) => loadConfig({ DATA_DIR: dataDir(), PROXY_ALLOWED_UPSTREAM_ORIGINS: value }).proxy.allowedUpstreamOrigins;
    expect(origins(' http://10.0.0.5:8080/api , https://internal.example ')).toEqual(['http://10.0.0.5:8080', 'https://internal.example']);
    expect(() => origins('http://10.0.0.5, internal.example')).toThrow(ConfigError);
    expect(() => origins('http://10.0.0.5, internal.example')).toThrow(/PROXY_ALLOWED_UPSTREAM_ORIGINS: entry 2 is not a URL/);
    // A host and port without a scheme parses as a URL whose origin is 'null'; so does any other scheme.
    expect(() => origins('localhost:3000')).toThrow(/PROXY_ALLOWED_UPSTREAM_ORIGINS: entry 1 is not an http\(s\) URL/);
    expect(() => origins('https://a.example, ftp://files.example')).toThrow(/entry 2 is not an http\(s\) URL/);
  });

  it('takes OAuth providers as a JSON array, naming the entry and field of a bad one but never a value', () => {
    const oauth = (value: string, redirects = '') => loadConfig({ DATA_DIR: dataDir(), OAUTH_PROVIDERS: value, OAUTH_ALLOWED_REDIRECTS: redirects }).oauth;
    const provider = { slug: 'gh', name: 'GitHub', authorize_url: 'https://github.com/login/oauth/authorize', token_url: 'https://github.com/login/oauth/access_token', client_id: 'id', client_secret: 's3cr3t-value', scopes: ['repo'] };
    expect(oauth(JSON.stringify([provider])).providers).toEqual([expect.objectContaining({ slug: 'gh', clientSecret: 's3cr3t-value', issuer: null, revokeUrl: null })]);
    expect(oauth(JSON.stringify([{ ...provider, authorize_url: undefined, token_url: undefined, issuer: 'https://accounts.example/' }])).providers[0]!.issuer).toBe('https://accounts.example/');
    expect(() => oauth('{')).toThrow(/OAUTH_PROVIDERS: is not valid JSON/);
    expect(() => oauth(JSON.stringify([provider, { ...provider, token_url: null }]))).toThrow(/OAUTH_PROVIDERS: entry 2 provider: needs issuer, or authorize_url and token_url/);
    expect(() => oauth(JSON.stringify([provider, provider]))).toThrow(/entry 2: slug gh is given twice/);
    expect(() => oauth(JSON.stringify([{ ...provider, token_url: 's3cr3t-value' }]))).not.toThrow(/s3cr3t-value/);
    // Redirects: exact URLs and origins, normalised; unset allows PUBLIC_URL's origin alone.
    expect(oauth('', ' https://App.Example.com:443 , https://dash.example.com/done ').allowedRedirects).toEqual({ origins: ['https://app.example.com'], urls: ['https://dash.example.com/done'] });
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://platform.example/' }).oauth.allowedRedirects).toEqual({ origins: ['https://platform.example'], urls: [] });
    expect(() => oauth('', 'https://a.example, app.example.com')).toThrow(/OAUTH_ALLOWED_REDIRECTS: entry 2/);
  });

  it('refuses a metrics token shorter than 24 characters', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'x'.repeat(23) })).toThrow(/METRICS_TOKEN must be at least 24 characters/);
    expect(loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'x'.repeat(24) }).metricsToken).toBe('x'.repeat(24));
    expect(loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: ' ' }).metricsToken).toBeUndefined();
  });

  it('takes a stop grace of 0 to 600 000 whole milliseconds, 10 s unless given', () => {
    const grace = (value?: string) => loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { SHUTDOWN_GRACE_MS: value }) }).shutdownGraceMs;
    expect([grace(), grace('0'), grace('600000')]).toEqual([10_000, 0, 600_000]);
    for (const broken of ['-1', '600001', '1.5', 'soon']) expect(() => grace(broken)).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});

/** An entry point of the build as its own process: its exit code and what it wrote to stderr. */
function entryPoint(script: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, script.split(' '), { env: { ...process.env, NODE_OPTIONS: '', ...env } }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stderr });
    });
  });
}

/** `count` processes that load the configuration on `dataDir` at the same moment; each prints its secrets. */
function loadTogether(dataDir: string, count: number): Promise<string[]> {
  const at = Date.now() + 1500;
  const script = `
    const { loadConfig } = await import(${JSON.stringify(path.resolve('dist/shared/config.js'))});
    while (Date.now() < ${at});
    try { console.log(JSON.stringify(loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)} }).secrets)); } catch (error) { console.log('failed: ' + error.message); }`;
  return Promise.all(
    Array.from({ length: count }, () => new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: '' } });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('exit', () => resolve(out.trim()));
    })),
  );
}

describe('development secrets', () => {
  it('processes started together on a fresh DATA_DIR (split mode) all end with the same secrets', async () => {
    for (let round = 0; round < 3; round++) {
      const secrets = await loadTogether(dataDir(), 4);
      expect(secrets.filter((line) => line.startsWith('failed'))).toEqual([]);
      expect(new Set(secrets).size).toBe(1);
    }
  });

  it('a secrets.json that is not JSON stops the start with a message saying what to do; an empty one is completed', () => {
    const broken = dataDir();
    writeFileSync(path.join(broken, 'secrets.json'), '{"JWT_SECRET": ');
    expect(() => loadConfig({ DATA_DIR: broken })).toThrow(/secrets\.json is not valid JSON: repair it, or remove it/);
    const empty = dataDir();
    writeFileSync(path.join(empty, 'secrets.json'), '{}');
    expect(loadConfig({ DATA_DIR: empty }).secrets.SECRETS_KEY).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('settings that would only fail at run time are refused at start', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env });

  it('an empty number setting (compose’s ${VAR:-}) is its default, never 0 (a random port, no grace at all)', () => {
    const config = load({ PORT: '', SHUTDOWN_GRACE_MS: ' ', DB_POOL_MAX: '' });
    expect([config.port, config.shutdownGraceMs, config.dbPoolMax]).toEqual([4000, 10_000, 20]);
  });

  it.each([
    ['PUBLIC_URL', 'localhost:4000'],
    ['PUBLIC_URL', 'javascript:alert(1)'],
    ['DATABASE_URL', 'localhost:5432/platform'],
    ['DATABASE_URL', 'mysql://user@db/platform'],
    ['REDIS_URL', 'http://redis:6379'],
    ['SMTP_URL', 'https://mail.example'],
    ['X402_FACILITATOR_URL', 'ftp://facilitator.example'],
    ['SUBGRAPH_ACCOUNTS_URL', 'accounts:4000/graphql'],
    ['X402_NETWORK', 'base-mainnet'],
    ['PROXY_HOLD_EXPIRY_SECONDS', '1000000000'],
    ['SIGNUP_BONUS_USD', '0'],
    ['X402_PAY_TO', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ])('%s=%s', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(new RegExp(name));
  });

  it('the schemes each service speaks are accepted', () => {
    const config = load({
      DATABASE_URL: 'postgresql://u@db/platform', REDIS_URL: 'rediss://cache:6380', SMTP_URL: 'smtps://u:p@mail.example',
      X402_NETWORK: 'base', SUBGRAPH_WALLET_URL: 'http://wallet:4000/graphql',
    });
    expect(config.subgraphUrls).toEqual({ wallet: 'http://wallet:4000/graphql' });
  });
});

describe('a bad setting at start', () => {
  it.each(['dist/gateway/main.js', 'dist/gateway/ledger-check-cli.js', 'dist/gateway/subgraph-main.js accounts'])(
    'stops %s with exit 1 and the problem alone, no stack trace',
    async (script) => {
      const { code, stderr } = await entryPoint(script, { DATA_DIR: dataDir(), PORT: 'eighty' });
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(/^Invalid configuration:\n {2}PORT: [^\n]+$/);
    },
  );

  it('a subgraph process asked for a subgraph that does not exist stops with exit 2, naming those that do', async () => {
    const { code, stderr } = await entryPoint('dist/gateway/subgraph-main.js acounts', { DATA_DIR: dataDir() });
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^Usage: node dist\/gateway\/subgraph-main.js <subgraph>, one of: accounts, /);
  });

  it('stops the platform with exit 1 and the problem alone when a SUBGRAPH_<NAME>_URL names no subgraph', async () => {
    const { code, stderr } = await entryPoint('dist/gateway/main.js', { DATA_DIR: dataDir(), SUBGRAPH_ACOUNTS_URL: 'http://127.0.0.1:1/graphql' });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid configuration:\n {2}SUBGRAPH_ACOUNTS_URL: no such subgraph[^\n]+$/);
  });
});
