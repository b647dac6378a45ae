import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, pickSystemAccount, transfer } from '../../../shared/ledger/index.js';
import { startFakeUpstream } from '../../fakes/upstream-server.js';
import type { BenchScenario } from '../scenario.js';

/**
 * The same upstream endpoint called directly and through the paid proxy (reserve, forward, post,
 * fee, counters) in one run, 50 connections each. Needs PROXY_ALLOW_PRIVATE_UPSTREAMS (the
 * upstream is on this machine): the bench runner sets it.
 */
export const paidProxyScenario: BenchScenario = {
  name: 'paid-proxy',
  async run({ url, api, services, measure }) {
    const upstream = await startFakeUpstream();
    try {
      const owner = await api.post('/auth/agent', { name: 'bench publisher' });
      const slug = `bench-${randomUUID().slice(0, 8)}`;
      const created = await api.post(
        '/publishers',
        {
          name: 'Bench upstream', slug, description: 'Echo', resource_name: 'Echo', resource_description: 'Echo',
          categories: ['bench'], publisher_category: 'integration', integration_type: 'api', billing_model: 'prepaid_credits',
          gateway_fee_percent: '2', wallet_address: '', wallet_network_id: '', api_url: upstream.url,
          api_key_header: 'X-Api-Key', upstream_api_key: 'bench-secret',
          endpoints: [{ method: 'GET', path: '/echo/{thing}', description: 'Echo' }],
          pricing: [{ pricing_model: 'per_request', price_per_call: '0.000001' }],
        },
        { token: owner.body.data.agent.api_key },
      );
      if (created.status !== 201) throw new Error(`bench publisher: ${JSON.stringify(created.body)}`);
      const em = services.orm.em.fork() as EntityManager;
      const callers: Record<string, string>[] = [];
      for (let index = 0; index < 50; index++) {
        const caller = (await api.post('/auth/agent', { name: `bench caller ${index}` })).body.data.agent;
        await transfer(em, {
          idempotencyKey: `bench-funding:${randomUUID()}`,
          debit: await pickSystemAccount(em, 'promotions'),
          credit: await ensureWalletAccount(em, caller.id),
          amount: 1_000_000_000n,
          kind: 'bonus',
        });
        callers.push({ authorization: `Bearer ${caller.api_key}` });
      }
      const headers = callers[0]!;
      await measure({ url: `${url}/publishers/${slug}/echo/warm`, headersPerConnection: callers, amount: 500, connections: 50 });
      const direct = await measure({ url: `${upstream.url}/echo/bench`, connections: 50, durationSeconds: 5 });
      const proxied = await measure({ url: `${url}/publishers/${slug}/echo/bench`, headersPerConnection: callers, connections: 50, durationSeconds: 5 });
      const hotWallet = await measure({ url: `${url}/publishers/${slug}/echo/bench`, headers, connections: 50, durationSeconds: 5 });
      const single = await measure({ url: `${url}/publishers/${slug}/echo/bench`, headers, connections: 1, durationSeconds: 3 });
      const singleDirect = await measure({ url: `${upstream.url}/echo/bench`, connections: 1, durationSeconds: 3 });
      return [
        { scenario: 'paid-proxy', case: 'GET upstream directly (50 connections)', measurement: direct },
        { scenario: 'paid-proxy', case: 'GET via paid proxy (50 conns, 50 callers)', measurement: proxied },
        { scenario: 'paid-proxy', case: 'GET via paid proxy (50 conns, 1 hot wallet)', measurement: hotWallet },
        { scenario: 'paid-proxy', case: 'GET upstream directly (1 connection)', measurement: singleDirect },
        { scenario: 'paid-proxy', case: 'GET through the paid proxy (1 connection)', measurement: single },
        {
          scenario: 'paid-proxy',
          case: 'proxied / direct',
          figures: {
            throughput: `${Math.round((proxied.requestsPerSecond / direct.requestsPerSecond) * 100)}%`,
            'added p50 ms': proxied.p50Ms - direct.p50Ms,
          },
        },
      ];
    } finally {
      await upstream.close();
    }
  },
};
