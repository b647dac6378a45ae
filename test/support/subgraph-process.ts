import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { subgraphModules } from '../../gateway/subgraphs.js';

/** The secrets a gateway and its subgraph processes share. */
export const splitSecrets = () => ({
  JWT_SECRET: randomBytes(32).toString('hex'),
  INTERNAL_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
});

export interface SubgraphProcess {
  child: ChildProcess;
  url: string;
  stop(): void;
}

/**
 * Runs `node dist/gateway/subgraph-main.js <name>` as its own process and waits until it listens.
 * `portsAt` is a platform running every other module (in one process): the subgraph asks it their ports.
 */
export function startSubgraphProcess(name: string, databaseUrl: string, env: Record<string, string>, portsAt?: string): Promise<SubgraphProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `acp-split-${name}-`));
  const others = portsAt ? Object.fromEntries(subgraphModules.filter((module) => module.name !== name).map((module) => [`SUBGRAPH_${module.name.toUpperCase()}_URL`, `${portsAt}/graphql`])) : {};
  const child = spawn(process.execPath, ['dist/gateway/subgraph-main.js', name], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...others, ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`subgraph process exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line);
      if (entry.msg === 'subgraph listening') resolve({ child, url: entry.url, stop });
    });
  });
}
