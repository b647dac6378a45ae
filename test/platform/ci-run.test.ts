import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `.ci/run` tests against the DATABASE_URL it is given, rather than probing 127.0.0.1:5432 and,
 * when that is down, silently falling back to a throw-away embedded PostgreSQL. The machine's
 * commands are stubbed: pg_isready says "down", npm prints what it was given.
 */
const bin = mkdtempSync(path.join(tmpdir(), 'acp-ci-run-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function stub(name: string, body: string) {
  const file = path.join(bin, name);
  writeFileSync(file, `#!/usr/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
}

describe('.ci/run', () => {
  it('keeps the DATABASE_URL it is given instead of dropping it when 127.0.0.1:5432 is down', async () => {
    for (const tool of ['dirname', 'seq', 'ls', 'head', 'mkdir', 'mktemp']) symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
    stub('pg_isready', 'exit 2');
    stub('sleep', 'exit 0');
    stub('npm', 'if [ "$1" = test ]; then echo "npm test with DATABASE_URL=${DATABASE_URL:-<unset>}"; fi');
    const given = 'postgres://ci:secret@db.ci.internal:5432/ci';
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/bash', [path.resolve('.ci/run')], { env: { PATH: bin, DATABASE_URL: given, HOME: bin } }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${out}\n${err}`)) : resolve(out),
      );
    });
    expect(stdout).toContain(`npm test with DATABASE_URL=${given}`);
  });
});
