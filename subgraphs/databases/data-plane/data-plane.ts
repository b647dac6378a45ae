import pg from 'pg';
import type { Logger } from '../../../shared/logger.js';
import { quoteIdentifier } from './names.js';
import { sqlTypes } from './sql-types.js';

export interface RoleLogin {
  role: string;
  password: string;
}

/**
 * The PostgreSQL server that holds users' databases (never the platform's own): an admin pool
 * (CREATEDB, CREATEROLE) for the platform's own statements, and small pools per database and role
 * for user SQL. Pools of a database are dropped whenever its sessions are ended (suspend, branch).
 */
export class DataPlane {
  readonly admin: pg.Pool;
  readonly host: string;
  readonly port: number;
  readonly adminRole: string;
  readonly serverVersion: Promise<number>;
  private readonly pools = new Map<string, pg.Pool>();

  constructor(
    readonly url: string,
    private readonly log: Logger,
    private readonly limits: { statementTimeoutMs: number; poolMax: number },
  ) {
    const parsed = new URL(url);
    this.host = parsed.hostname;
    this.port = Number(parsed.port || 5432);
    this.adminRole = decodeURIComponent(parsed.username);
    this.admin = new pg.Pool({ connectionString: url, max: 5, idleTimeoutMillis: 10_000 });
    this.admin.on('error', (error) => log.debug({ err: error }, 'idle data-plane admin connection closed'));
    this.serverVersion = this.admin.query('SHOW server_version_num').then((result) => Number(result.rows[0].server_version_num));
    this.serverVersion.catch(() => undefined);
  }

  /** A pool for user SQL as `login` on `database`: the role's own rights only, the statement timeout set. */
  poolFor(database: string, login: RoleLogin): pg.Pool {
    const key = `${database}\u0000${login.role}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new pg.Pool({
        host: this.host,
        port: this.port,
        database,
        user: login.role,
        password: login.password,
        max: this.limits.poolMax,
        idleTimeoutMillis: 10_000,
        statement_timeout: this.limits.statementTimeoutMs,
        idle_in_transaction_session_timeout: this.limits.statementTimeoutMs * 2,
        options: '-c TimeZone=UTC -c DateStyle=ISO',
        types: sqlTypes,
        application_name: 'acp-sql',
      });
      // A session ended by suspend or branching fails its idle client: the pool drops it.
      pool.on('error', (error) => this.log.debug({ err: error, database }, 'idle data-plane session ended'));
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Forgets this process's sessions to these databases (they are about to be ended, or already are). */
  dropPools(databases: string[]): void {
    for (const [key, pool] of this.pools) {
      if (databases.includes(key.split('\u0000')[0]!)) {
        this.pools.delete(key);
        void pool.end().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
    await this.admin.end();
  }

  /** Runs statements as the admin on one of the data plane's databases (catalogue reads, grants). */
  async asAdminOn<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const parsed = new URL(this.url);
    parsed.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: parsed.toString(), types: sqlTypes, application_name: 'acp-admin' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Every session on these databases, ended; the caller has refused new ones first. */
  async terminateSessions(databases: string[]): Promise<void> {
    this.dropPools(databases);
    await this.admin.query(
      `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = ANY($1::text[]) AND pid <> pg_backend_pid()`,
      [databases],
    );
  }

  async setAllowConnections(databases: string[], allow: boolean): Promise<void> {
    for (const database of databases) {
      await this.admin.query(`ALTER DATABASE ${quoteIdentifier(database)} ALLOW_CONNECTIONS ${allow ? 'true' : 'false'}`);
    }
  }
}
