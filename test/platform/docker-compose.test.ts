import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { subgraphModules } from '../../gateway/subgraphs.js';

/**
 * docker-compose.yml (the split layout) gives each process the settings its own code reads: in
 * split mode, mails are sent by the accounts process, a card deposit is created by the wallet
 * process, and the marketplace process answers supportedPayments, not the gateway.
 */
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
interface Service {
  command?: string;
  environment?: Record<string, unknown>;
  healthcheck?: unknown;
  stop_grace_period?: string;
  depends_on?: Record<string, { condition: string }> | string[];
}
const compose = yaml.load(readFileSync('docker-compose.yml', 'utf8')) as { services: Record<string, Service> };
const SHARED_SETTINGS = ['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'MAIL_FROM', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'X402_PAY_TO', 'X402_FACILITATOR_URL', 'X402_RPC_URLS', 'X402_NETWORK', 'X402_SETTLEMENT', 'SHUTDOWN_GRACE_MS', 'JWT_SECRET', 'INTERNAL_SECRET', 'SECRETS_KEY'];

describe('docker-compose.yml', () => {
  const processes = [...subgraphModules.map((module) => module.name), 'gateway'];

  it.each(processes)('gives %s every shared setting, a healthcheck and a stop grace longer than the platform’s', (name) => {
    const service = compose.services[name]!;
    expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining(SHARED_SETTINGS));
    expect(service.healthcheck).toBeDefined();
    expect(service.stop_grace_period).toBe('60s');
  });

  it.each(subgraphModules.map((module) => module.name))('runs %s through the one subgraph entry, told where every other subgraph runs (for their ports)', (name) => {
    const service = compose.services[name]!;
    expect(service.command).toBe(`node dist/gateway/subgraph-main.js ${name}`);
    for (const module of subgraphModules) expect(service.environment?.[`SUBGRAPH_${module.name.toUpperCase()}_URL`]).toBe(`http://${module.name}:4000/graphql`);
  });

  it('starts the gateway once every subgraph answers, each at the URL the gateway is given', () => {
    const gateway = compose.services.gateway!;
    for (const module of subgraphModules) {
      expect((gateway.depends_on as Record<string, { condition: string }>)[module.name]).toEqual({ condition: 'service_healthy' });
      expect(gateway.environment?.[`SUBGRAPH_${module.name.toUpperCase()}_URL`]).toBe(`http://${module.name}:4000/graphql`);
    }
  });
});
