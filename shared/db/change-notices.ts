import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { settledWithin } from '../timing.js';

const CHANNEL = 'platform_changes';
/** Shown in pg_stat_activity, so the listening session can be told apart from the pool's. */
export const CHANGE_LISTENER_APPLICATION = 'acp-change-listener';
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * What a process may hold a copy of: a publisher's call view (by slug), an API key owner's
 * identities (by user id); and `outbox`: events of these types wait in the outbox (shared/outbox).
 */
export type ChangeTopic = 'publisher' | 'api_key_owner' | 'outbox';
type ChangeHandler = (key: string) => void;

interface ChangeNotice {
  topic: ChangeTopic;
  keys: string[];
}

export interface ChangeNoticesOptions {
  /** How often the listening connection is asked a trivial query, to find out it still answers. */
  heartbeatMs?: number;
  /** How long that query may go unanswered before the connection counts as dead. */
  heartbeatTimeoutMs?: number;
}

/**
 * Tells every process on the same database that something it may have cached has changed. The
 * notice goes through PostgreSQL NOTIFY on the EntityManager's own connection: inside a
 * transaction it is delivered when (and only if) that transaction commits, and a failure fails the
 * transaction (PostgreSQL aborts it anyway). After the change, a failure is logged, not thrown: the
 * change stands, and other processes' caches expire on their own.
 */
export async function announceChange(em: EntityManager, topic: ChangeTopic, keys: string[], log?: Logger): Promise<void> {
  if (keys.length === 0) return;
  const notice: ChangeNotice = { topic, keys: [...new Set(keys)] };
  try {
    await em.execute('select pg_notify(?, ?)', [CHANNEL, JSON.stringify(notice)]);
  } catch (error) {
    if (em.isInTransaction()) throw error;
    log?.warn({ err: error, topic }, 'could not announce a change to other processes; their caches expire on their own');
  }
}

const TOPICS: readonly string[] = ['publisher', 'api_key_owner', 'outbox'] satisfies ChangeTopic[];

/** Anyone with access to the database can NOTIFY: only a well-formed notice is acted on. */
function noticeOf(payload: string | undefined): ChangeNotice | null {
  let notice: unknown;
  try {
    notice = JSON.parse(payload ?? '');
  } catch {
    return null;
  }
  const { topic, keys } = (notice ?? {}) as { topic?: unknown; keys?: unknown };
  if (typeof topic !== 'string' || !TOPICS.includes(topic)) return null;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return null;
  return { topic: topic as ChangeTopic, keys };
}

/**
 * One listening connection per process: hands each announced change to the caches that hold a
 * copy. While the connection is lost, notices are missed, so on every reconnection each cache is
 * told to forget everything (`onResync`).
 */
export class ChangeNotices {
  private readonly handlers = new Map<ChangeTopic, ChangeHandler[]>();
  private readonly resyncHandlers: (() => void)[] = [];
  private client: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs = 250;
  private heartbeat: NodeJS.Timeout | null = null;
  private pinging = false;
  private closed = false;
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    options: ChangeNoticesOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
  }

  on(topic: ChangeTopic, handler: ChangeHandler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  onResync(handler: () => void): void {
    this.resyncHandlers.push(handler);
  }

  /** Listens before the process serves anything; a database that cannot be reached fails the start. */
  async start(): Promise<void> {
    await this.listen();
    // Closed while connecting: the connection just made is the one close() could not end.
    if (this.closed) return this.close();
    this.heartbeat = setInterval(() => void this.ping(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    if (client) await this.end(client);
  }

  /** A goodbye to a server that cannot hear it (the connection went silent) is waited for only so long. */
  private async end(client: pg.Client): Promise<void> {
    const ended = client.end().catch(() => undefined);
    if (!(await settledWithin(ended, this.heartbeatTimeoutMs))) client.connection.stream.destroy();
  }

  /**
   * A connection cut off without a word (a partition, a NAT or firewall dropping the flow, a host
   * gone without a FIN) goes on looking open, and keepalive takes minutes to tell: a query that
   * does not come back ends the connection, and its 'end' reconnects and resyncs as any loss does.
   */
  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || this.pinging) return;
    this.pinging = true;
    try {
      await client.query('select 1');
    } catch (error) {
      if (this.closed || this.client !== client) return;
      this.log.warn({ err: error }, 'change listener did not answer its heartbeat; dropping the connection');
      client.connection.stream.destroy();
    } finally {
      this.pinging = false;
    }
  }

  private async listen(): Promise<void> {
    // Keepalive probes after 30 s of silence: a listener cut off without a word would otherwise miss notices for hours.
    // A connection attempt or a query (LISTEN, a heartbeat) not answered within the heartbeat timeout fails.
    const client = new pg.Client({
      connectionString: this.url,
      application_name: CHANGE_LISTENER_APPLICATION,
      keepAlive: true,
      keepAliveInitialDelayMillis: 30_000,
      query_timeout: this.heartbeatTimeoutMs,
      connectionTimeoutMillis: this.heartbeatTimeoutMs,
    });
    client.on('notification', (message) => this.deliver(message.payload));
    client.on('error', (error) => this.log.warn({ err: error }, 'change listener connection failed'));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await this.end(client);
      throw error;
    }
    this.client = client;
  }

  /**
   * A change this process made: its own caches forget at once, before the notice (which reaches
   * the other processes, and this one again) has gone round the database.
   */
  changedHere(topic: ChangeTopic, keys: string[]): void {
    this.dispatch({ topic, keys });
  }

  private deliver(payload: string | undefined): void {
    const notice = noticeOf(payload);
    if (!notice) return this.log.warn({ payload: payload?.slice(0, 200) }, 'ignored a malformed change notice');
    this.dispatch(notice);
  }

  private dispatch(notice: ChangeNotice): void {
    for (const handler of this.handlers.get(notice.topic) ?? []) {
      for (const key of notice.keys) this.safely(() => handler(key), 'a change handler failed');
    }
  }

  /** One cache's failure never keeps the others from hearing of a change. */
  private safely(run: () => void, failure: string): void {
    try {
      run();
    } catch (error) {
      this.log.error({ err: error }, failure);
    }
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.log.warn('change listener disconnected; reconnecting');
    this.retryLater();
  }

  private retryLater(): void {
    this.retryTimer = setTimeout(() => void this.reconnect(), this.retryDelayMs);
    this.retryTimer.unref();
  }

  private async reconnect(): Promise<void> {
    this.retryTimer = null;
    if (this.closed) return;
    try {
      await this.listen();
    } catch (error) {
      if (this.closed) return;
      this.retryDelayMs = Math.min(this.retryDelayMs * 2, MAX_RETRY_DELAY_MS);
      this.log.warn({ err: error, retryInMs: this.retryDelayMs }, 'change listener could not reconnect');
      return this.retryLater();
    }
    if (this.closed) return void this.close();
    this.retryDelayMs = 250;
    this.log.info('change listener reconnected; caches start afresh');
    for (const handler of this.resyncHandlers) this.safely(handler, 'a resync handler failed');
  }
}
