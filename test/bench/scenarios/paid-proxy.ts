import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureWalletAccount, pickSystemAccount, transfer } from '../../../shared/ledger/index.js';
import { startListeningChild } from '../child-process.js';
import type { Measurement, MeasureOptions } from '../measure.js';
import { paidCallSplit } from '../paid-call-split.js';
import { benchScripts } from '../scripts.js';
import type { BenchScenario } from '../scenario.js';

/**
 * An upstream that takes this long per call, like a real API doing real work: the same comparison,
 * where the upstream and not the platform sets the pace.
 */
const UPSTREAM_SERVICE_MS = Number(process.env.BENCH_UPSTREAM_SERVICE_MS ?? 20);

/**
 * The same upstream endpoint, in its own process, called directly, through a bare Node proxy (the
 * floor for any proxy in Node on this machine) and through the paid proxy (authentication,
 * policy, reserve, forward, post, fee, counters), 50 connections and 1 connection each; then once
 * more with an upstream that takes UPSTREAM_SERVICE_MS per call.
 * Needs PROXY_ALLOW_PRIVATE_UPSTREAMS (the upstream is on this machine): the bench runner sets it.
 */
export const paidProxyScenario: BenchScenario = {
  name: 'paid-proxy',
  async run({ url, api, services, measure, scrapeMetrics }) {
    const upstream = await startListeningChild(benchScripts.upstream);
    const bare = await startListeningChild(benchScripts.bareProxy, { UPSTREAM_URL: upstream.url });
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
      const paidUrl = `${url}/publishers/${slug}/echo/bench`;
      const directUrl = `${upstream.url}/echo/bench`;
      const bareUrl = `${bare.url}/echo/bench`;
      const hotWallet = callers[0]!;
      await measure({ url: paidUrl, headersPerConnection: callers, amount: 1000, connections: 50 });
      await measure({ url: bareUrl, amount: 1000, connections: 50 });
      const direct = await measure({ url: directUrl, connections: 50, durationSeconds: 5 });
      const bareProxy = await measure({ url: bareUrl, connections: 50, durationSeconds: 5 });
      /** A measurement of the paid proxy, with where its calls' time went. */
      const measurePaid = async (options: MeasureOptions) => {
        const before = await scrapeMetrics();
        const measured = await measure(options);
        return { measured, split: paidCallSplit(before, await scrapeMetrics(), measured) };
      };
      const { measured: paid, split: paidSplit } = await measurePaid({ url: paidUrl, headersPerConnection: callers, connections: 50, durationSeconds: 5 });
      const hot = await measure({ url: paidUrl, headers: hotWallet, connections: 50, durationSeconds: 5 });
      const directOne = await measure({ url: directUrl, connections: 1, durationSeconds: 3 });
      const bareOne = await measure({ url: bareUrl, connections: 1, durationSeconds: 3 });
      const { measured: paidOne, split: paidOneSplit } = await measurePaid({ url: paidUrl, headers: hotWallet, connections: 1, durationSeconds: 3 });
      const working = `?service_ms=${UPSTREAM_SERVICE_MS}`;
      const directWorking = await measure({ url: directUrl + working, connections: 50, durationSeconds: 5 });
      const { measured: paidWorking, split: paidWorkingSplit } = await measurePaid({
        url: paidUrl + working,
        headersPerConnection: callers,
        connections: 50,
        durationSeconds: 5,
      });
      const percent = (part: Measurement, whole: Measurement) => `${Math.round((part.requestsPerSecond / whole.requestsPerSecond) * 100)}%`;
      const added = (slower: Measurement, faster: Measurement) => ({
        'added p50 ms': slower.p50Ms - faster.p50Ms,
        'added mean ms': Math.round((slower.meanMs - faster.meanMs) * 1000) / 1000,
      });
      const row = (name: string, measurement: Measurement) => ({ scenario: 'paid-proxy', case: name, measurement });
      const figures = (name: string, values: Record<string, number | string>) => ({ scenario: 'paid-proxy', case: name, figures: values });
      return [
        row('upstream directly (50 conns)', direct),
        row('bare Node proxy, no metering (50 conns)', bareProxy),
        row('paid proxy (50 conns, 50 callers)', paid),
        row('paid proxy (50 conns, 1 hot wallet)', hot),
        row('upstream directly (1 conn)', directOne),
        row('bare Node proxy (1 conn)', bareOne),
        row('paid proxy (1 conn)', paidOne),
        figures('throughput ratios (50 conns)', { 'paid/direct': percent(paid, direct), 'paid/bare': percent(paid, bareProxy), 'bare/direct': percent(bareProxy, direct) }),
        figures('paid vs direct (50 conns)', added(paid, direct)),
        figures('paid call time split (50 conns)', paidSplit),
        figures('paid vs direct (1 conn)', added(paidOne, directOne)),
        figures('paid vs bare proxy (1 conn)', added(paidOne, bareOne)),
        figures('paid call time split (1 conn)', paidOneSplit),
        row(`upstream directly, ${UPSTREAM_SERVICE_MS} ms service (50 conns)`, directWorking),
        row(`paid proxy, ${UPSTREAM_SERVICE_MS} ms service (50 conns, 50 callers)`, paidWorking),
        figures(`paid vs direct, ${UPSTREAM_SERVICE_MS} ms service (50 conns)`, { 'paid/direct': percent(paidWorking, directWorking), ...added(paidWorking, directWorking) }),
        figures(`paid call time split, ${UPSTREAM_SERVICE_MS} ms service`, paidWorkingSplit),
      ];
    } finally {
      await bare.close();
      await upstream.close();
    }
  },
};
