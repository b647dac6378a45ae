import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import type { PlatformServices } from '../../../shared/services.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import { Publisher } from '../entities/publisher.js';
import type { PublisherInput } from '../types/inputs.js';
import { buildEndpoints } from './endpoint-fields.js';
import { announcePublisherChange } from './load-publisher-for-call.js';
import { findOwnedPublisher, requirePublisherManager } from './find-publisher.js';
import { assertPayPerUseReserve, buildPricing } from './pricing-fields.js';
import { assertPublicPricesPayable } from './public-endpoint-prices.js';
import { applyPublisherFields } from './publisher-fields.js';
import { assertOwnDatabase } from './database-location.js';
import { secretBoxOf } from './secrets.js';

const slugTaken = () => conflict('slug_taken', 'Another publisher already uses this slug');

/** Stores the publisher with its endpoints and pricing; a taken slug (even in a race) is a 409. */
async function save(em: EntityManager, work: (em: EntityManager) => Promise<Publisher>): Promise<Publisher> {
  try {
    return await em.transactional(work);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && /slug/.test(error.message)) throw slugTaken();
    throw error;
  }
}

function sealSecrets(services: PlatformServices, publisher: Publisher, input: PublisherInput) {
  const box = secretBoxOf(services);
  if (input.upstreamApiKey !== undefined) {
    publisher.upstreamApiKeySealed = input.upstreamApiKey ? box.encrypt(input.upstreamApiKey) : null;
  }
  if (input.tokenExchangeCredentials !== undefined) {
    const credentials = input.tokenExchangeCredentials;
    if (credentials !== null && (typeof credentials !== 'object' || Array.isArray(credentials))) {
      throw badRequest('invalid_input', 'token_exchange_credentials must be an object');
    }
    publisher.tokenExchangeCredentialsSealed = credentials ? box.encrypt(JSON.stringify(credentials)) : null;
  }
}

/** Validates and stores a new publisher with its endpoints, pricing and sealed secrets (inside a transaction). */
export async function insertPublisher(
  em: EntityManager,
  services: PlatformServices,
  organizationId: string,
  input: PublisherInput,
): Promise<Publisher> {
  const publisher = new Publisher();
  publisher.organizationId = organizationId;
  applyPublisherFields(publisher, input, true);
  await assertOwnDatabase(services, em, publisher);
  sealSecrets(services, publisher, input);
  const endpoints = input.endpoints ?? (publisher.publisherCategory === 'database' ? null : []);
  publisher.hasEndpoints = endpoints !== null;
  const pricing = buildPricing(publisher.id, input.pricing ?? []);
  if (publisher.billingModel === 'pay_per_use') assertPayPerUseReserve(pricing);
  const endpointRows = buildEndpoints(publisher.id, endpoints ?? []);
  assertPublicPricesPayable(publisher.billingModel, endpointRows);
  const rows = [...endpointRows, ...pricing];
  if (await em.count(Publisher, { slug: publisher.slug })) throw slugTaken();
  em.persist([publisher, ...rows]);
  await em.flush();
  return publisher;
}

/** POST /publishers: a new publisher owned by the caller's organization. */
export async function createPublisher(context: RequestContext, input: PublisherInput): Promise<Publisher> {
  const identity = requireIdentity(context);
  await requirePublisherManager(context, context.em, identity.organizationId);
  const created = await save(context.em, (em) => insertPublisher(em, context.services, identity.organizationId, input));
  await announcePublisherChange(context.services, context.em, created.slug);
  return created;
}

/** PATCH /publishers/{slug}: changes the named fields; endpoints and pricing are replaced when given. */
export async function updatePublisher(context: RequestContext, slug: string, input: PublisherInput): Promise<Publisher> {
  const updated = await save(context.em, async (em) => {
    const publisher = await findOwnedPublisher(context, em, slug);
    applyPublisherFields(publisher, input, false);
    await assertOwnDatabase(context.services, em, publisher);
    sealSecrets(context.services, publisher, input);
    if (input.endpoints !== undefined) {
      const endpoints = buildEndpoints(publisher.id, input.endpoints ?? []);
      assertPublicPricesPayable(publisher.billingModel, endpoints);
      await em.nativeDelete(PublisherEndpoint, { publisherId: publisher.id });
      publisher.hasEndpoints = input.endpoints !== null;
      em.persist(endpoints);
    } else if (input.billingModel !== undefined) {
      assertPublicPricesPayable(publisher.billingModel, await em.find(PublisherEndpoint, { publisherId: publisher.id }));
    }
    const pricing = input.pricing !== undefined ? buildPricing(publisher.id, input.pricing ?? []) : null;
    if (publisher.billingModel === 'pay_per_use') {
      assertPayPerUseReserve(pricing ?? (await em.find(PublisherPricing, { publisherId: publisher.id })));
    }
    if (pricing) {
      await em.nativeDelete(PublisherPricing, { publisherId: publisher.id });
      em.persist(pricing);
    }
    publisher.updatedAt = new Date();
    await em.flush();
    return publisher;
  });
  await announcePublisherChange(context.services, context.em, slug, updated.slug);
  return updated;
}

/** DELETE /publishers/{slug}: soft delete; the record stays for history (its slug taken), and is found nowhere. */
export async function deactivatePublisher(context: RequestContext, slug: string): Promise<Publisher> {
  const deactivated = await save(context.em, async (em) => {
    const publisher = await findOwnedPublisher(context, em, slug);
    publisher.isActive = false;
    publisher.deletedAt = new Date();
    publisher.updatedAt = publisher.deletedAt;
    await em.flush();
    return publisher;
  });
  await announcePublisherChange(context.services, context.em, slug);
  return deactivated;
}
