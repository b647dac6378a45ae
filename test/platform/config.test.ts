import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
});
