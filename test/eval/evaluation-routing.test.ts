import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';
import { betaCdf, betaQuantile, wilsonInterval } from '../../subgraphs/eval/services/intervals.js';

const CAP = 50;
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ EVAL_MIN_SIGNALS: '20', EVAL_MAX_PSEUDO_COUNT_PER_ORG: String(CAP), EVAL_HALF_LIFE_DAYS: '30' });
});
afterAll(() => t.close());

const newClient = async () => (await registerAgent(t, { name: 'eval-client' })).api_key;
const send = (token: string | undefined, body: unknown) => t.api.post('/eval/signals', body, { token });
const signals = <T,>(count: number, fields: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => fields(i));
const matrixOf = async (token: string) => (await t.api.get('/eval/matrix', { token })).body.data;
const cellOf = (cells: any[], model: string) => cells.find((cell) => cell.model_id === model);
const priorOf = async (token: string, task: string, model: string) =>
  (await t.api.get(`/eval/community-prior?task_type=${task}&model_id=${model}`, { token })).body.data;

/** Sends `total` signals in batches of 100, a few requests at a time. */
async function sendMany(token: string, total: number, fields: (i: number) => Record<string, unknown>) {
  const batches = signals(Math.ceil(total / 100), (b) => signals(Math.min(100, total - b * 100), (i) => fields(b * 100 + i)));
  for (let i = 0; i < batches.length; i += 4) {
    const responses = await Promise.all(batches.slice(i, i + 4).map((batch) => send(token, { signals: batch })));
    for (const response of responses) expect(response.status).toBe(201);
  }
}

describe('signals', () => {
  it('need a credential, on every evaluation path', async () => {
    for (const response of [await send(undefined, {}), await t.api.get('/eval/matrix'), await t.api.get('/eval/community-prior?task_type=chat&model_id=m')]) {
      expect([response.status, response.body.error.code]).toEqual([401, 'unauthorized']);
    }
  });

  it('a signal is stored (201) and a replay of its signal_id is accepted but counted once', async () => {
    const token = await newClient();
    const model = `m-${randomUUID()}`;
    const one = { task_type: 'chat', model_id: model, outcome: 'success', latency_ms: 120, cost: '0.0021', tokens: 300, signal_id: 'sig-1' };
    const first = await send(token, one);
    expect([first.status, first.body.data]).toEqual([201, { received: 1, recorded: 1, duplicates: 0 }]);
    expect((await send(token, one)).body.data).toEqual({ received: 1, recorded: 0, duplicates: 1 });
    const batch = await send(token, { signals: [one, { ...one, signal_id: 'sig-2' }, { ...one, signal_id: 'sig-2' }] });
    expect(batch.body.data).toEqual({ received: 3, recorded: 1, duplicates: 2 });
    expect(cellOf((await matrixOf(token)).organization, model)).toMatchObject({ task_type: 'chat', signals: 2, clients: 1, mean_latency_ms: 120, mean_cost: '0.0021' });
  });

  it('two identical batches racing store each signal once', async () => {
    const token = await newClient();
    const model = `race-${randomUUID()}`;
    const batch = { signals: signals(50, (i) => ({ task_type: 'code', model_id: model, score: 0.5, signal_id: `r-${i}` })) };
    const [a, b] = await Promise.all([send(token, batch), send(token, batch)]);
    expect(a.body.data.recorded + b.body.data.recorded).toBe(50);
    expect(cellOf((await matrixOf(token)).organization, model).signals).toBe(50);
  });

  it.each([
    ['an unknown task type, listing the values', { task_type: 'poetry' }, 'invalid_task_type', /signals\[2\]\.task_type.*chat, code.*tool_use, other/],
    ['a missing model_id', { model_id: undefined }, 'invalid_signal', /signals\[2\]\.model_id/],
    ['both an outcome and a score', { score: 0.5 }, 'invalid_signal', /signals\[2\]/],
    ['a score above 1', { outcome: undefined, score: 1.5 }, 'invalid_signal', /signals\[2\]\.score/],
    ['a cost that is not a decimal string', { cost: '-1' }, 'invalid_signal', /signals\[2\]\.cost/],
  ])('a batch with %s is 400 naming the item and field, and none of it is stored', async (_label, bad, code, message) => {
    const token = await newClient();
    const model = `atomic-${randomUUID()}`;
    const good = { task_type: 'extraction', model_id: model, outcome: 'failure' };
    const response = await send(token, { signals: [good, good, { ...good, ...bad }] });
    expect([response.status, response.body.error.code]).toEqual([400, code]);
    expect(response.body.error.message).toMatch(message);
    expect((await matrixOf(token)).organization).toEqual([]);
  });

  it('a batch holds 1 to 100 signals', async () => {
    const token = await newClient();
    const tooMany = await send(token, { signals: signals(101, () => ({ task_type: 'chat', model_id: 'm', outcome: 'success' })) });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, 'too_many_signals']);
    expect((await send(token, { signals: [] })).body.error.code).toBe('no_signals');
  });
});

describe('the matrix', () => {
  it('shows counts, clients, 95% intervals and sufficiency per cell, and recommends per preference with its rule', async () => {
    const [tokenA, tokenB] = [await signUpVerified(t), await signUpVerified(t)];
    const user = tokenA.accessToken;
    const [best, cheap, few] = ['best', 'cheap', 'few'].map((name) => `${name}-${randomUUID().slice(0, 8)}`);
    await send(user, { signals: signals(25, (i) => ({ task_type: 'summarization', model_id: best, outcome: i < 20 ? 'success' : 'failure', latency_ms: 100, cost: '0.01' })) });
    await send(user, { signals: signals(25, (i) => ({ task_type: 'summarization', model_id: cheap, outcome: i < 17 ? 'success' : 'failure', latency_ms: 900, cost: '0.001' })) });
    await send(user, { signals: signals(5, () => ({ task_type: 'summarization', model_id: few, outcome: 'success', latency_ms: 1, cost: '0' })) });
    await send(tokenB.accessToken, { task_type: 'summarization', model_id: best, outcome: 'success' });
    const matrix = await matrixOf(user);
    expect(matrix.min_signals).toBe(20);
    const cell = cellOf(matrix.organization, best);
    expect(cell).toMatchObject({ task_type: 'summarization', signals: 25, clients: 1, sufficient: true, mean_latency_ms: 100, mean_cost: '0.01' });
    expect(cell.success_rate.rate).toBeCloseTo(0.8);
    expect(cell.success_rate.low).toBeCloseTo(wilsonInterval(20, 25).low, 10);
    expect(cellOf(matrix.organization, few)).toMatchObject({ signals: 5, sufficient: false });
    expect(cellOf(matrix.community, best)).toMatchObject({ signals: 26, clients: 2 });
    const recommended = (preference: string) => matrix.recommendations.find((r: any) => r.task_type === 'summarization' && r.preference === preference);
    expect(recommended('quality')).toMatchObject({ model_id: best, basis: 'organization', evidence: { model_id: best, signals: 25 } });
    expect(recommended('quality').rule).toMatch(/lower bound of the 95% success interval.*at least 20 signals/);
    expect(recommended('cost')).toMatchObject({ model_id: cheap, evidence: { mean_cost: '0.001' } });
    expect(recommended('latency').model_id).toBe(best);
    const other = await matrixOf(tokenB.accessToken);
    expect(other.organization.map((c: any) => c.model_id)).toEqual([best]);
    expect(other.recommendations.find((r: any) => r.task_type === 'summarization' && r.preference === 'quality')).toMatchObject({ model_id: best, basis: 'community' });
  });

  it('GraphQL answers the same matrix, task types as the TaskType enum', async () => {
    const token = await newClient();
    await send(token, { task_type: 'tool_use', model_id: 'gql-model', outcome: 'success' });
    const response = await t.api.graphql('{ evalMatrix { organization { taskType modelId signals successRate { rate low high } sufficient } } }', {}, { token });
    expect(response.body.data.evalMatrix.organization).toEqual([
      { taskType: 'tool_use', modelId: 'gql-model', signals: 1, successRate: { rate: 1, ...wilsonInterval(1, 1) }, sufficient: false },
    ]);
    const enumType = await t.api.graphql('{ __type(name: "TaskType") { enumValues { name } } }');
    expect(enumType.body.data.__type.enumValues.map((v: any) => v.name)).toEqual(
      ['chat', 'code', 'reasoning', 'extraction', 'summarization', 'translation', 'classification', 'embedding', 'tool_use', 'other'],
    );
  });
});

describe('the community prior', () => {
  it('needs task_type and model_id, and names the task types when one is unknown', async () => {
    const token = await newClient();
    expect((await t.api.get('/eval/community-prior?model_id=m', { token })).status).toBe(400);
    expect((await t.api.get('/eval/community-prior?task_type=chat', { token })).body.error.code).toBe('missing_model_id');
    const unknown = await t.api.get('/eval/community-prior?task_type=poetry&model_id=m', { token });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_task_type']);
    expect(unknown.body.error.message).toContain('chat, code, reasoning, extraction, summarization, translation, classification, embedding, tool_use, other');
  });

  it('a single organization sending 10,000 failures moves the prior by at most its cap', async () => {
    const model = `cap-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++) await sendMany(await newClient(), 30, () => ({ task_type: 'reasoning', model_id: model, outcome: 'success' }));
    const reader = await newClient();
    const before = await priorOf(reader, 'reasoning', model);
    expect(before).toMatchObject({ organizations: 3, signals: 90, clients: 3, max_pseudo_count_per_organization: CAP, half_life_days: 30 });
    expect(before.alpha).toBeCloseTo(91, 2);
    expect(before.beta).toBeCloseTo(1, 3);
    await sendMany(await newClient(), 10_000, () => ({ task_type: 'reasoning', model_id: model, outcome: 'failure' }));
    const after = await priorOf(reader, 'reasoning', model);
    expect(after.signals).toBe(10_090);
    expect(after.beta - before.beta).toBeLessThanOrEqual(CAP + 1e-6);
    expect(after.beta - before.beta).toBeGreaterThan(CAP - 0.01);
    // Only recency moves alpha, by less than 0.05 over the minutes the sends may take on a busy machine.
    expect(after.alpha).toBeCloseTo(before.alpha, 1);
    expect(after.mean).toBeGreaterThanOrEqual(after.alpha / (after.alpha + before.beta + CAP) - 1e-9);
    expect(after.low).toBeLessThan(after.mean);
    expect(after.high).toBeGreaterThan(after.mean);
    expect(Date.parse(after.window_start)).toBeLessThanOrEqual(Date.parse(after.window_end));
  }, 180_000); // 100 batches: minutes on a machine shared by many test runs

  it('recency: a cell’s weight halves every EVAL_HALF_LIFE_DAYS, and new signals add to the decayed weight', async () => {
    const token = await newClient();
    const model = `decay-${randomUUID().slice(0, 8)}`;
    await send(token, { signals: signals(10, () => ({ task_type: 'translation', model_id: model, outcome: 'success' })) });
    expect((await priorOf(token, 'translation', model)).effective_signals).toBeCloseTo(10, 3);
    const em = t.platform.services.orm.em.fork();
    await em.execute(`update eval_cell set decayed_at = decayed_at - interval '30 days' where model_id = ?`, [model]);
    expect((await priorOf(token, 'translation', model)).effective_signals).toBeCloseTo(5, 3);
    await send(token, { signals: signals(10, () => ({ task_type: 'translation', model_id: model, outcome: 'failure' })) });
    const prior = await priorOf(token, 'translation', model);
    expect(prior.effective_signals).toBeCloseTo(15, 3);
    expect(prior.alpha).toBeCloseTo(6, 3);
    expect(prior.signals).toBe(20);
  });
});

describe('publisher suggestions', () => {
  it('rank publishers of equal text match by the community success rate on their routing task, and say so in match_reason', async () => {
    const owner = await signUpVerified(t);
    const twin = { name: 'Routing Twin', description: 'Code review helper', capabilities: ['code review'], categories: ['developer'], routing: { task_type: 'code' } };
    const weaker = await createPublisher(t, owner.accessToken, twin);
    const stronger = await createPublisher(t, owner.accessToken, twin);
    const token = await newClient();
    await send(token, { signals: signals(20, (i) => ({ task_type: 'code', model_id: 'any', publisher_slug: weaker.slug, outcome: i < 5 ? 'success' : 'failure' })) });
    await send(token, { signals: signals(20, (i) => ({ task_type: 'code', model_id: 'any', publisher_slug: stronger.slug, outcome: i < 18 ? 'success' : 'failure' })) });
    const suggestions = (await t.api.get('/publishers/suggest?query=routing%20twin%20code%20review')).body.data as any[];
    const slugs = suggestions.map((item) => item.slug).filter((slug) => slug === weaker.slug || slug === stronger.slug);
    expect(slugs).toEqual([stronger.slug, weaker.slug]);
    expect(suggestions.find((item) => item.slug === stronger.slug).match_reason).toContain('community success 90% on code over 20 signals');
  });
});

describe('interval arithmetic', () => {
  it('Wilson 8 of 10 is [0.490, 0.943]; Beta quantiles invert the Beta distribution function', () => {
    const { low, high } = wilsonInterval(8, 10);
    expect([low, high].map((x) => Number(x.toFixed(3)))).toEqual([0.49, 0.943]);
    expect(betaQuantile(0.025, 1, 1)).toBeCloseTo(0.025, 9);
    expect(betaCdf(0.5, 7, 7)).toBeCloseTo(0.5, 9);
    expect(betaCdf(betaQuantile(0.975, 91, 51), 91, 51)).toBeCloseTo(0.975, 9);
  });
});
