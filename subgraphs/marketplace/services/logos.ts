import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, badRequest, notFound } from '../../../shared/errors.js';
import { PublisherLogo } from '../entities/logo.js';
import { findOwnedPublisher, findPublisher } from './find-publisher.js';
import { announcePublisherChange } from './load-publisher-for-call.js';

export const MAX_LOGO_BYTES = 256 * 1024;

const SIGNATURES: { type: string; matches: (bytes: Buffer) => boolean }[] = [
  { type: 'image/png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** The image type by its first bytes (whatever Content-Type the caller claimed). */
export function imageTypeOf(bytes: Buffer): string | null {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type ?? null;
}

/** PUT /publishers/{slug}/logo: the owner stores a PNG, JPEG or WebP of at most 256 KB. */
export async function storeLogo(context: RequestContext, slug: string, bytes: Buffer): Promise<{ logoUrl: string; etag: string }> {
  if (bytes.length > MAX_LOGO_BYTES) throw new AppError(413, 'logo_too_large', `A logo is at most ${MAX_LOGO_BYTES / 1024} KB`);
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw badRequest('unsupported_image', 'A logo must be a PNG, JPEG or WebP image');
  const stored = await context.em.transactional(async (em) => {
    const publisher = await findOwnedPublisher(context, em, slug);
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    await em.upsert(PublisherLogo, { publisherId: publisher.id, contentType, bytes, etag, updatedAt: new Date() });
    publisher.logoEtag = etag;
    publisher.updatedAt = new Date();
    await em.flush();
    return { logoUrl: publisher.logoUrl!, etag };
  });
  // The record's logo_url and updated_at changed: cached catalogue pages must show them.
  await announcePublisherChange(context.services, context.em, slug);
  return stored;
}

/** GET /publishers/{slug}/logo: the stored image; 404 when the publisher or its logo is missing. */
export async function readLogo(em: EntityManager, slug: string): Promise<PublisherLogo> {
  const publisher = await findPublisher(em, slug);
  const logo = publisher.logoEtag ? await em.findOne(PublisherLogo, { publisherId: publisher.id }) : null;
  if (!logo) throw notFound('Logo');
  return logo;
}
