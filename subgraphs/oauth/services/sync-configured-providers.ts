import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../../shared/db/pg-array.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';

/**
 * OAUTH_PROVIDERS written to the database at start, so a global provider has a stable id that
 * publishers and connections refer to: each one is inserted or updated by its slug (replicas
 * starting together meet in the upsert), and a global provider no longer configured is
 * deactivated, its connections kept for when it returns.
 */
export async function syncConfiguredProviders(services: PlatformServices): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const box = secretBoxOf(services);
  const configured = services.config.oauth.providers;
  await em.transactional(async (tx) => {
    for (const p of configured) {
      await tx.execute(
        `insert into oauth_provider (id, organization_id, slug, name, issuer, authorize_url, token_url, userinfo_url, revoke_url,
           client_id, client_secret_sealed, scopes, is_active, created_at, updated_at)
         values (?, null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[], true, now(), now())
         on conflict (slug) where organization_id is null do update set
           name = excluded.name, issuer = excluded.issuer, authorize_url = excluded.authorize_url, token_url = excluded.token_url,
           userinfo_url = excluded.userinfo_url, revoke_url = excluded.revoke_url, client_id = excluded.client_id,
           client_secret_sealed = excluded.client_secret_sealed, scopes = excluded.scopes, is_active = true, updated_at = now()`,
        [randomUUID(), p.slug, p.name, p.issuer, p.authorizeUrl, p.tokenUrl, p.userinfoUrl, p.revokeUrl, p.clientId, box.encrypt(p.clientSecret), pgArray(p.scopes)],
      );
    }
    await tx.execute(
      `update oauth_provider set is_active = false, updated_at = now()
       where organization_id is null and is_active and not (slug = any(?::text[]))`,
      [pgArray(configured.map((p) => p.slug))],
    );
  });
}
