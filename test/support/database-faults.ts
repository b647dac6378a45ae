import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface RefusedInserts {
  table: string;
  /** A condition on NEW, in SQL. */
  when: string;
  /** Refuse only this many times (counted across rollbacks); every time without it. */
  times?: number;
  /** The SQLSTATE raised (default P0001, a plain error); 40P01 plays a deadlock. */
  errcode?: string;
}

/**
 * Runs `work` while the database refuses rows inserted into `table` that match `when`, as a
 * database failing at that point would; the trigger is removed afterwards whatever happens.
 */
export async function withInsertsRefused<T>(em: EntityManager, refused: RefusedInserts, work: () => Promise<T>): Promise<T> {
  const name = `refuse_${randomBytes(4).toString('hex')}`;
  const counted = refused.times !== undefined;
  if (counted) await em.execute(`create sequence ${name}_count`);
  const limit = counted ? `and nextval('${name}_count') <= ${refused.times}` : '';
  await em.execute(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if (${refused.when}) ${limit} then raise exception 'insert refused by the test' using errcode = '${refused.errcode ?? 'P0001'}'; end if;
      return new;
    end $$`);
  await em.execute(`create trigger ${name} before insert on ${refused.table} for each row execute function ${name}()`);
  try {
    return await work();
  } finally {
    await em.execute(`drop trigger ${name} on ${refused.table}; drop function ${name}()${counted ? `; drop sequence ${name}_count` : ''}`);
  }
}
