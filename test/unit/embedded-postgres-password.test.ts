import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.js';
import { createLogger } from '../../shared/logger.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-embedded-password-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the embedded database’s password file', () => {
  it('missing beside an existing database stops the start saying what to do, instead of writing a password that cannot open it', async () => {
    mkdirSync(path.join(dataDir, 'postgres'), { recursive: true });
    writeFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
    await expect(startEmbeddedPostgres(dataDir, createLogger('silent'))).rejects.toThrow(/postgres\.password is missing: restore it, or remove .*postgres/);
  });
});
