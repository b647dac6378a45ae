import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { stop } from '../bench/child-process.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { Api } from './http.js';
import { Mailbox } from './mailbox.js';

/** Six Node processes loading the platform at once on a small, busy machine take a while. */
const READY_TIMEOUT_MS = 240_000;

export interface SplitProcess {
  /** `accounts`, `wallet#2`, `gateway`… */
  name: string;
  port: number;
  child: ChildProcess;
}

/**
 * The platform as docker-compose.yml runs it, from dist/: the gateway and each subgraph of
 * gateway/subgraphs.ts in its own Node process (`replicas` of some twice or more), on one database
 * and Redis. The gateway reaches each subgraph's first replica; the others serve what is sent to
 * them directly and deliver their module's events as much as the first does.
 */
export class SplitDeployment {
  readonly secrets = { JWT_SECRET: randomBytes(32).toString('hex'), INTERNAL_SECRET: randomBytes(32).toString('hex'), SECRETS_KEY: randomBytes(32).toString('hex') };
  readonly metricsToken = randomBytes(24).toString('hex');
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'acp-split-'));
  readonly mailbox = new Mailbox(this.dataDir);
  readonly processes = new Map<string, SplitProcess>();
  api!: Api;
  database!: TestDatabase;
  private ports = new Map<string, number>();

  private constructor(private readonly replicas: Record<string, number>) {}

  static async start(options: { replicas?: Record<string, number> } = {}): Promise<SplitDeployment> {
    const deployment = new SplitDeployment(options.replicas ?? {});
    try {
      await deployment.boot();
    } catch (error) {
      await deployment.close();
      throw error;
    }
    return deployment;
  }

  /** Subgraph URLs as every process gets them (SUBGRAPH_<NAME>_URL, the first replica's). */
  subgraphUrl(name: string, replica = 1): string {
    return `http://127.0.0.1:${this.ports.get(replicaName(name, replica))}/graphql`;
  }

  private env(): NodeJS.ProcessEnv {
    const urls = Object.fromEntries(subgraphModules.map((module) => [`SUBGRAPH_${module.name.toUpperCase()}_URL`, this.subgraphUrl(module.name)]));
    return {
      ...process.env,
      ...this.secrets,
      ...urls,
      NODE_OPTIONS: '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: this.dataDir,
      PUBLIC_URL: 'http://app.test',
      DATABASE_URL: this.database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      DB_POOL_MAX: '5',
      SEED_CATALOGUE: 'false',
      SHUTDOWN_GRACE_MS: '1000',
      METRICS_TOKEN: this.metricsToken,
    };
  }

  private async boot(): Promise<void> {
    this.database = await createTestDatabase();
    const names = subgraphModules.flatMap((module) => Array.from({ length: this.replicas[module.name] ?? 1 }, (_, i) => replicaName(module.name, i + 1)));
    for (const name of [...names, 'gateway']) this.ports.set(name, await freePort());
    // Subgraphs first, as docker-compose does: the gateway starts once they answer.
    await Promise.all(names.map((name) => this.startProcess(name)));
    await this.startProcess('gateway');
    this.api = new Api(`http://127.0.0.1:${this.ports.get('gateway')}`);
  }

  /** Starts (or starts again, on the same port) one process, and waits until it listens. */
  async startProcess(name: string): Promise<SplitProcess> {
    const port = this.ports.get(name)!;
    const args = name === 'gateway' ? ['dist/gateway/main.js'] : ['dist/gateway/subgraph-main.js', name.split('#')[0]!];
    const child = spawn(process.execPath, args, { env: { ...this.env(), PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const entry: SplitProcess = { name, port, child };
    this.processes.set(name, entry);
    await waitUntilListening(child, name);
    return entry;
  }

  /** Ends a process at once, as a crash or the kernel would (no clean stop). */
  async kill(name: string): Promise<void> {
    const { child } = this.processes.get(name)!;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes.values()].map(({ child }) => stop(child)));
    await this.database?.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

const replicaName = (name: string, replica: number) => (replica === 1 ? name : `${name}#${replica}`);

/**
 * Below the kernel's ephemeral range (32768 and up here): a port picked there can be handed to
 * another test's `listen(0)` or outgoing connection in the seconds before our process binds it.
 */
const PORTS_FROM = 20_000;
const PORTS_TO = 32_000;

async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS_FROM + Math.floor(Math.random() * (PORTS_TO - PORTS_FROM));
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/** Resolves on the process's "listening" log line; its errors (and anything on stderr) reach the test's output. */
function waitUntilListening(child: ChildProcess, name: string): Promise<void> {
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it listened (code ${code}, signal ${signal})`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return void process.stderr.write(`[${name}] ${line}\n`);
      const entry = JSON.parse(line) as { level: number; msg: string };
      if (entry.level >= 50 || process.env.SPLIT_DEBUG) process.stderr.write(`[${name}] ${line}\n`);
      if (entry.msg === 'subgraph listening' || entry.msg === 'platform listening') {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve();
      }
    });
  });
}
