import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface RunningChild {
  url: string;
  pid: number;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 120_000;

/** Stops a child cleanly (SIGINT), or at once after 15 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

function spawnNode(script: string, env: NodeJS.ProcessEnv, stdout: 'pipe' | 'inherit', nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
}

/** BENCH_PROFILE_DIR=dir writes a V8 CPU profile of the platform process there when the bench ends. */
function profilingArgs(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

function failOnEarlyExit(child: ChildProcess, script: string): Promise<never> {
  return once(child, 'exit').then(([code, signal]) => {
    throw new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`);
  });
}

function timeout(script: string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`${script} was not ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS).unref());
}

/**
 * Runs a bench helper (`processes/*.js`) in its own Node process, so it does not share an event
 * loop with the load generator; the helper prints `listening <url>` on its first stdout line.
 */
export async function startListeningChild(script: string, env: NodeJS.ProcessEnv = {}): Promise<RunningChild> {
  const child = spawnNode(script, env, 'pipe');
  const lines = createInterface({ input: child.stdout! });
  const firstLine = new Promise<string>((resolve) => lines.once('line', resolve));
  try {
    const line = await Promise.race([firstLine, failOnEarlyExit(child, script), timeout(script)]);
    const match = /^listening (\S+)$/.exec(line);
    if (!match) throw new Error(`${script} printed "${line}" instead of "listening <url>"`);
    lines.on('line', (next) => process.stderr.write(`${next}\n`));
    return { url: match[1]!, pid: child.pid!, close: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

async function waitUntilReady(url: string): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `npm start`'s entry point (already built) in its own process and waits for /readyz. */
export async function startPlatformChild(script: string, port: number, env: NodeJS.ProcessEnv): Promise<RunningChild> {
  const child = spawnNode(script, { ...env, PORT: String(port), HOST: '127.0.0.1' }, 'inherit', profilingArgs());
  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([waitUntilReady(url), failOnEarlyExit(child, script), timeout(script)]);
    return { url, pid: child.pid!, close: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}
