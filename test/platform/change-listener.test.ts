import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { pino } from 'pino';
import { CHANGE_LISTENER_APPLICATION, ChangeNotices, type ChangeNoticesOptions } from '../../shared/db/change-notices.js';
import { startTcpRelay, type TcpRelay } from '../fakes/tcp-relay.js';
import { settledWithin } from '../../shared/timing.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * One process's change listener, reaching PostgreSQL through a relay the tests cut off without
 * telling either end, as a partition or a NAT forgetting the flow would: the socket stays open and
 * TCP keepalive is answered, so only the heartbeat can tell.
 */
interface Listener {
  notices: ChangeNotices;
  relay: TcpRelay;
  heard: string[];
  resyncs: number;
  logs: { msg: string; retryInMs?: number }[];
}

let database: TestDatabase;
let announcer: pg.Client;
const started: Listener[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  announcer = new pg.Client({ connectionString: database.url });
  await announcer.connect();
});
afterEach(async () => {
  jest.restoreAllMocks();
  for (const listener of started.splice(0)) {
    await listener.notices.close();
    await listener.relay.close();
  }
});
afterAll(async () => {
  await announcer?.end();
  await database?.drop();
});

// Heartbeats every 200 ms; 3 s to answer, so that a loaded machine (2 cores, jest workers and PostgreSQL) does not drop a healthy connection.
async function startListener(options: ChangeNoticesOptions = { heartbeatMs: 200, heartbeatTimeoutMs: 3000 }): Promise<Listener> {
  const listener = await createListener(options);
  await listener.notices.start();
  return listener;
}

async function createListener(options: ChangeNoticesOptions = { heartbeatMs: 200, heartbeatTimeoutMs: 3000 }): Promise<Listener> {
  const url = new URL(database.url);
  const relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = relay.address;
  const logs: Listener['logs'] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const listener: Listener = { notices: new ChangeNotices(url.toString(), log, options), relay, heard: [], resyncs: 0, logs };
  listener.notices.on('publisher', (slug) => listener.heard.push(slug));
  listener.notices.onResync(() => listener.resyncs++);
  started.push(listener);
  return listener;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `condition` holds within `ms`. */
async function until(condition: () => boolean, ms = 5000): Promise<boolean> {
  for (let waited = 0; !condition() && waited < ms; waited += 20) await sleep(20);
  return condition();
}

async function announce(slug: string): Promise<void> {
  await announcer.query(`select pg_notify('platform_changes', $1)`, [JSON.stringify({ topic: 'publisher', keys: [slug] })]);
}

async function hears(listener: Listener, slug: string): Promise<boolean> {
  await announce(slug);
  return until(() => listener.heard.includes(slug));
}

const logged = (listener: Listener, msg: string) => listener.logs.filter((line) => line.msg === msg);

/** Timers (this file's, the listener's, pg's) created from now on and neither fired nor cleared yet. */
function trackTimers(): () => number {
  const created = [jest.spyOn(globalThis, 'setTimeout'), jest.spyOn(globalThis, 'setInterval')];
  return () => created.flatMap((spy) => spy.mock.results).filter((result) => !(result.value as { _destroyed: boolean })._destroyed).length;
}

const HEARTBEAT_MISSED = 'change listener did not answer its heartbeat; dropping the connection';

describe('the change listener', () => {
  it('notices by its heartbeat that its connection went silent, reconnects, resyncs and hears notices again', async () => {
    const listener = await startListener();
    expect(await hears(listener, 'before')).toBe(true);

    listener.relay.silence();
    await announce('missed');
    expect(await until(() => listener.resyncs > 0, 10_000)).toBe(true);
    expect(await hears(listener, 'after')).toBe(true);
    expect(listener.heard).toEqual(['before', 'after']);

    // Some heartbeats later, still the one reconnection.
    await sleep(1000);
    expect(listener.resyncs).toBe(1);
    expect(listener.relay.accepted).toBe(2);
    expect(logged(listener, HEARTBEAT_MISSED)).toHaveLength(1);
    expect(logged(listener, 'change listener disconnected; reconnecting')).toHaveLength(1);
  });

  it('retries a refused reconnection with growing delays, then resyncs and hears notices again', async () => {
    const listener = await startListener();
    expect(await hears(listener, 'before')).toBe(true);

    listener.relay.refuseNext(3);
    listener.relay.silence();
    expect(await until(() => listener.resyncs > 0, 15_000)).toBe(true);
    expect(logged(listener, 'change listener could not reconnect').map((line) => line.retryInMs)).toEqual([500, 1000, 2000]);
    expect(listener.relay.accepted).toBe(5);
    expect(logged(listener, 'change listener reconnected; caches start afresh')).toHaveLength(1);
    expect(await hears(listener, 'after')).toBe(true);
    expect(listener.resyncs).toBe(1);
  });

  it('closed while waiting to retry a reconnection, leaves no timer behind and never reconnects', async () => {
    const pendingTimers = trackTimers();
    const listener = await startListener();
    listener.relay.refuseNext(Infinity);
    listener.relay.silence();
    expect(await until(() => logged(listener, 'change listener could not reconnect').length > 0, 10_000)).toBe(true);

    await listener.notices.close();
    expect(pendingTimers()).toBe(0);
    const accepted = listener.relay.accepted;
    // Well past the next retry (500 ms) and several heartbeats.
    await sleep(1500);
    expect(listener.relay.accepted).toBe(accepted);
    expect(listener.resyncs).toBe(0);
  });

  it('closed while it is still connecting, ends the connection it was making and sets no heartbeat', async () => {
    const pendingTimers = trackTimers();
    const listener = await createListener();
    const starting = listener.notices.start();
    await listener.notices.close();
    await starting;
    const listening = async () =>
      Number((await announcer.query(`select count(*) from pg_stat_activity where datname = current_database() and application_name = $1`, [CHANGE_LISTENER_APPLICATION])).rows[0].count);
    for (let waited = 0; (await listening()) > 0 && waited < 5000; waited += 50) await sleep(50);
    expect(await listening()).toBe(0);
    expect(pendingTimers()).toBe(0);
    await sleep(500);
    expect(listener.relay.accepted).toBe(1);
    expect(listener.resyncs).toBe(0);
  });

  it('closed while its connection is silent and no heartbeat has noticed yet, gives up its goodbye after the heartbeat timeout', async () => {
    const listener = await startListener({ heartbeatMs: 60_000, heartbeatTimeoutMs: 1000 });
    listener.relay.silence();
    expect(await settledWithin(listener.notices.close(), 8000)).toBe(true);
    expect(listener.resyncs).toBe(0);
  });

  it('closed while a heartbeat goes unanswered, leaves no timer behind and never reconnects', async () => {
    const pendingTimers = trackTimers();
    const listener = await startListener({ heartbeatMs: 200, heartbeatTimeoutMs: 5000 });
    listener.relay.silence();
    expect(await until(() => listener.relay.swallowed > 0)).toBe(true);
    const oneHeartbeat = listener.relay.swallowed;
    // Heartbeats that came due meanwhile were skipped, not queued behind it: the one sent waits,
    // and the only timers are the heartbeat's own and that query's timeout.
    await sleep(1000);
    expect(listener.relay.swallowed).toBe(oneHeartbeat);
    expect(pendingTimers()).toBe(2);

    await listener.notices.close();
    expect(pendingTimers()).toBe(0);
    await sleep(1000);
    expect(listener.relay.accepted).toBe(1);
    expect(listener.resyncs).toBe(0);
    expect(listener.logs).toEqual([]);
  });
});
