import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { CACHE_CONNECTION_PREFIX, CREDENTIALS_CHANNEL, type CachePeers } from './credential-cache.js';

/** The processes that cache credentials on this PostgreSQL database, found by their listening connections' names. */
export class CredentialCachePeers implements CachePeers {
  constructor(private readonly db: Db) {}

  async list(): Promise<{ id: string; pid: number }[]> {
    // Both drivers answer `{ rows }`; the query builder's type does not say so.
    const result = (await this.db.execute(
      sql`select application_name, pid from pg_stat_activity where datname = current_database() and starts_with(application_name, ${CACHE_CONNECTION_PREFIX})`,
    )) as unknown as { rows: { application_name: string; pid: number }[] };
    return result.rows.map((row) => ({ id: row.application_name.slice(CACHE_CONNECTION_PREFIX.length), pid: Number(row.pid) }));
  }

  async notify(payload: string): Promise<void> {
    await this.db.execute(sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${payload})`);
  }

  async cut(pid: number): Promise<void> {
    await this.db.execute(sql`select pg_terminate_backend(${pid})`);
  }
}
