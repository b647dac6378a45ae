import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

interface LogEntry {
  msg: string;
  [field: string]: unknown;
}

const spawned: ChildProcess[] = [];
// A test that failed half-way leaves no process behind.
afterEach(() => {
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `node dist/test/support/stopping-process.js …` (stopOnSignals around a close() that fails or hangs), with its log entries. */
function startStopping(how: 'fails' | 'hangs' | 'hangs-idle', graceMs: number, restMs?: number) {
  const args = ['dist/test/support/stopping-process.js', how, String(graceMs), ...(restMs === undefined ? [] : [String(restMs)])];
  const child = spawn(process.execPath, args, { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'] });
  spawned.push(child);
  const entries: LogEntry[] = [];
  let exitedAt = 0;
  // `close`, not `exit`: by then every line it wrote has been read.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      exitedAt = performance.now();
      resolve(code);
    }),
  );
  const started = new Promise<void>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the process exited before it started')));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as LogEntry;
      entries.push(entry);
      if (entry.msg === 'started') resolve();
    });
  });
  started.catch(() => undefined);
  return { process: child, entries, started, exited, exitedAt: () => exitedAt };
}

describe('stopping on signals', () => {
  it('a close() that fails exits 1 at once, logging why, without waiting for the deadline', async () => {
    // Grace 60 s: were the failure not handled, only the deadline (two minutes and more) would end it.
    const child = startStopping('fails', 60_000);
    await child.started;
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(1);
    // pino writes stdout asynchronously: exiting before its writes finished let the last line overtake the one before it.
    const byMessage = new Map(child.entries.map((entry) => [entry.msg, entry]));
    expect(child.entries.map((entry) => entry.msg)).toEqual(['started', 'stopping', 'stopping failed']);
    expect(byMessage.get('stopping')).toMatchObject({ level: 30, signal: 'SIGTERM' });
    expect(byMessage.get('stopping failed')).toMatchObject({ level: 50, err: { type: 'Error', message: 'the database stopped answering' } });
  });

  it('a stop that outlives its deadline (twice the grace plus the rest) exits 1, and not before', async () => {
    const child = startStopping('hangs', 100, 300);
    await child.started;
    const signalled = performance.now();
    child.process.kill('SIGINT');
    expect(await child.exited).toBe(1);
    expect(child.exitedAt() - signalled).toBeGreaterThanOrEqual(495); // a timer may round down by a millisecond
    expect(child.entries.map((entry) => entry.msg)).toEqual(['started', 'stopping', 'stopping took too long: exiting now']);
    expect(child.entries[1]).toMatchObject({ signal: 'SIGINT' });
    expect(child.entries[2]).toMatchObject({ level: 50, deadlineMs: 500 });
  });

  it('a stop that hangs with nothing else left running still ends in 1 at its deadline, not 0 when the event loop empties', async () => {
    const child = startStopping('hangs-idle', 100, 300);
    await child.started;
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(1);
    expect(child.entries.map((entry) => entry.msg)).toEqual(['started', 'stopping', 'stopping took too long: exiting now']);
  });

  it('without a rest given, the deadline keeps 30 s beyond twice the grace: a hanging stop is still waiting well after it', async () => {
    const child = startStopping('hangs', 50);
    await child.started;
    child.process.kill('SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(child.process.exitCode).toBeNull();
    // A second signal ends it.
    child.process.kill('SIGHUP');
    expect(await child.exited).toBe(1);
    expect(child.entries.map((entry) => entry.msg)).toEqual(['started', 'stopping', 'signalled again while stopping: exiting now']);
  });
});
