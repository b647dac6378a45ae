import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { ContractFactory, JsonRpcProvider, Wallet, type Contract } from 'ethers';

/** Hardhat's well-known development accounts (funded with test ether on its node). */
export const HARDHAT_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = (server.address() as AddressInfo);
      server.close(() => resolve(port));
    });
  });

export interface EvmNode {
  url: string;
  provider: JsonRpcProvider;
  stop(): Promise<void>;
}

/** A real local EVM node: Hardhat Network from the `hardhat` npm package, run as a child process. */
export async function startEvmNode(): Promise<EvmNode> {
  const port = await freePort();
  const cli = createRequire(import.meta.url).resolve('hardhat/internal/cli/cli.js');
  const config = path.resolve('test/fixtures/hardhat.config.cjs');
  const child: ChildProcess = spawn(process.execPath, [cli, 'node', '--config', config, '--hostname', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hardhat node did not start:\n${output}`)), 60_000);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Started HTTP')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hardhat node exited (${code}):\n${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const provider = new JsonRpcProvider(url, undefined, { pollingInterval: 100, cacheTimeout: -1 });
  return {
    url,
    provider,
    async stop() {
      provider.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const token = JSON.parse(readFileSync(path.resolve('test/fixtures/test-token.json'), 'utf8')) as { abi: any[]; bytecode: string };

/** Deploys the test ERC-20 (test/fixtures/TestToken.sol) from `deployer`, which may mint and block transfers. */
export async function deployTestToken(node: EvmNode, deployerKey: string): Promise<Contract> {
  const deployer = new Wallet(deployerKey, node.provider);
  const contract = await new ContractFactory(token.abi, token.bytecode, deployer).deploy();
  await contract.waitForDeployment();
  return contract as Contract;
}
