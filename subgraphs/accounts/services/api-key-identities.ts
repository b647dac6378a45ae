import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../../../shared/context.js';
import { announceChange } from '../../../shared/db/change-notices.js';
import type { Logger } from '../../../shared/logger.js';
import type { PlatformServices } from '../../../shared/services.js';

interface Remembered {
  identity: Identity;
  expiresAt: number;
}

const MAX_REMEMBERED = 50_000;
/**
 * How long after a forget the user's keys are not remembered again. A forget may run inside the
 * transaction that makes the change (wallet recovery rotates keys in one); a lookup racing that
 * commit still reads the old row, and must not keep it for a whole TTL afterwards.
 */
const UNSETTLED_MS = 10_000;

/**
 * API keys this process resolved recently, by key hash: the paid path then authenticates an agent
 * without a query. Anything that changes what a key stands for (revocation, rotation, the owner's
 * e-mail verification) forgets the owner's keys here at once, and in other processes when the
 * announced change reaches them (within the TTL at worst).
 */
export class ApiKeyIdentities {
  private readonly byHash = new Map<string, Remembered>();
  private readonly unsettledUntil = new Map<string, number>();
  private allUnsettledUntil = 0;

  get(keyHash: string): Identity | null {
    const remembered = this.byHash.get(keyHash);
    if (!remembered) return null;
    if (remembered.expiresAt > Date.now()) return remembered.identity;
    this.byHash.delete(keyHash);
    return null;
  }

  remember(keyHash: string, identity: Identity, ttlSeconds: number): void {
    if (ttlSeconds <= 0 || this.isUnsettled(identity.userId)) return;
    if (this.byHash.size >= MAX_REMEMBERED) this.byHash.delete(this.byHash.keys().next().value!);
    this.byHash.set(keyHash, { identity, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  forgetUser(userId: string): void {
    for (const [hash, remembered] of this.byHash) if (remembered.identity.userId === userId) this.byHash.delete(hash);
    if (this.unsettledUntil.size >= MAX_REMEMBERED) this.dropSettled();
    this.unsettledUntil.set(userId, Date.now() + UNSETTLED_MS);
  }

  /** After missed notices: nothing is remembered, nor remembered again while a change may still be committing. */
  forgetAll(): void {
    this.byHash.clear();
    this.allUnsettledUntil = Date.now() + UNSETTLED_MS;
  }

  private isUnsettled(userId: string): boolean {
    if (this.allUnsettledUntil > Date.now()) return true;
    const until = this.unsettledUntil.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.unsettledUntil.delete(userId);
    return false;
  }

  private dropSettled(): void {
    const now = Date.now();
    for (const [userId, until] of this.unsettledUntil) if (until <= now) this.unsettledUntil.delete(userId);
  }
}

/** One per database (keyed by the ORM configuration, shared by every fork of its EntityManager). */
const perDatabase = new WeakMap<object, ApiKeyIdentities>();

export function apiKeyIdentitiesOf(em: { config: object }): ApiKeyIdentities {
  let identities = perDatabase.get(em.config);
  if (!identities) perDatabase.set(em.config, (identities = new ApiKeyIdentities()));
  return identities;
}

/**
 * Call after changing a user's keys or e-mail verification. Inside the transaction that makes the
 * change, other processes hear of it when it commits; after it, at once.
 */
export async function forgetApiKeyIdentities(em: EntityManager, userId: string, log?: Logger): Promise<void> {
  apiKeyIdentitiesOf(em).forgetUser(userId);
  await announceChange(em, 'api_key_owner', [userId], log);
}

/** Keeps this process's remembered keys in step with changes other processes announce. */
export function followApiKeyChanges(services: PlatformServices): void {
  const identities = apiKeyIdentitiesOf(services.orm.em);
  services.changes.on('api_key_owner', (userId) => identities.forgetUser(userId));
  services.changes.onResync(() => identities.forgetAll());
}
