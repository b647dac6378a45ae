import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `kill -TERM <pid>` on `npm start` (what a process manager or a user does) must stop the platform
 * and its embedded PostgreSQL: the start script hands its process over (exec), and npm passes the
 * signal on to it. `--ignore-scripts` skips the prestart build only: `npm test` has compiled dist/.
 */
describe('npm start', () => {
  it('stops the platform and its embedded PostgreSQL when its own PID gets SIGTERM, leaving no child behind', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-npm-start-'));
    const postgresOf = () => spawnSync('pgrep', ['-f', path.join(dataDir, 'postgres')]).stdout.toString().trim();
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'info', SEED_CATALOGUE: 'false', DATABASE_URL: '', DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '2000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const messages: string[] = [];
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    const listening = new Promise<number>((resolve, reject) => {
      npm.once('exit', () => reject(new Error('npm start exited before the platform listened')));
      createInterface({ input: npm.stdout! }).on('line', (line) => {
        if (!line.startsWith('{')) return;
        const entry = JSON.parse(line);
        messages.push(entry.msg);
        if (entry.msg === 'platform listening') resolve(entry.pid);
      });
    });
    let platformPid = 0;
    try {
      platformPid = await listening;
      expect(platformPid).not.toBe(npm.pid);
      expect(postgresOf()).not.toBe('');
      process.kill(npm.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
      expect(messages).toEqual(expect.arrayContaining(['stopping', 'stopped']));
      expect(alive(platformPid)).toBe(false);
      expect(postgresOf()).toBe('');
      expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      for (const pid of [npm.pid!, platformPid]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
      const left = postgresOf();
      if (left) spawnSync('kill', ['-9', ...left.split('\n')]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
