import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * Ctrl-C in the terminal running `npm start` sends SIGINT to the whole foreground process group.
 * The embedded Postgres is in the platform's group, so it gets the SIGINT too and stops at once
 * while the platform is still draining. The platform's stop must then not wait for an exit that has
 * already happened (it waited until its deadline and exited 1): it exits 0.
 */
describe('npm start with the embedded database, stopped by Ctrl-C', () => {
  it('SIGINT to the whole process group (as a terminal sends it) stops cleanly with exit 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'acp-review-ctrlc-'));
    const postgresOf = () => spawnSync('pgrep', ['-f', path.join(dataDir, 'postgres')]).stdout.toString().trim();
    // A new process group, as a shell's job; SHUTDOWN_GRACE_MS 3000: the deadline is 2 × 3 s + 30 s.
    const child = spawn(process.execPath, ['dist/gateway/main.js'], {
      env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'info', SEED_CATALOGUE: 'false', DATABASE_URL: '', DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '3000' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    const messages: string[] = [];
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const listening = new Promise<void>((resolve, reject) => {
      child.once('exit', () => reject(new Error('the platform exited before listening')));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.startsWith('{')) return;
        lines.push(line);
        const entry = JSON.parse(line);
        messages.push(entry.msg);
        if (entry.msg === 'platform listening') resolve();
      });
    });
    try {
      await listening;
      // A request in flight (its body still coming), which the stop lets finish for the grace.
      const port = Number(/"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(lines.join('\n'))![1]);
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.on('error', () => undefined);
      socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      expect(messages).not.toContain('stopping took too long: exiting now');
      socket.destroy();
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      const left = postgresOf();
      if (left) spawnSync('kill', ['-9', ...left.split('\n')]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
