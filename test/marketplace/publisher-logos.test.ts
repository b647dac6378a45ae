import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified, type SignedInUser } from '../support/accounts.js';
import { createPublisher } from '../support/publishers.js';

let t: TestPlatform;
let owner: SignedInUser;
beforeAll(async () => {
  t = await startTestPlatform();
  owner = await signUpVerified(t);
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR fake png body')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 data')]);

const putLogo = (slug: string, bytes: Buffer, token?: string, contentType = 'image/png') =>
  fetch(`${t.api.baseUrl}/publishers/${slug}/logo`, {
    method: 'PUT',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: bytes,
  });

describe('publisher logos', () => {
  it('stores the owner’s PNG, serves it with its type, ETag and cache headers, and sets logo_url', async () => {
    const publisher = await createPublisher(t, owner.accessToken);
    const put = await putLogo(publisher.slug, PNG, owner.accessToken);
    expect(put.status).toBe(200);
    expect(((await put.json()) as any).data.logo_url).toBe(`/publishers/${publisher.slug}/logo`);
    const served = await fetch(`${t.api.baseUrl}/publishers/${publisher.slug}/logo`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('max-age');
    const etag = served.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const again = await fetch(`${t.api.baseUrl}/publishers/${publisher.slug}/logo`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await t.api.get(`/publishers/${publisher.slug}`)).body.data.logo_url).toBe(`/publishers/${publisher.slug}/logo`);
  });

  it('decides the type by magic bytes, not by the declared content type', async () => {
    const publisher = await createPublisher(t, owner.accessToken);
    expect((await putLogo(publisher.slug, WEBP, owner.accessToken, 'image/png')).status).toBe(200);
    expect((await fetch(`${t.api.baseUrl}/publishers/${publisher.slug}/logo`)).headers.get('content-type')).toBe('image/webp');
    const text = await putLogo(publisher.slug, Buffer.from('<svg onload="alert(1)"/>'), owner.accessToken);
    expect(text.status).toBe(400);
    expect(((await text.json()) as any).error.code).toBe('unsupported_image');
  });

  it('refuses a logo above 256 KB with 413', async () => {
    const publisher = await createPublisher(t, owner.accessToken);
    const big = Buffer.concat([PNG, Buffer.alloc(256 * 1024)]);
    const response = await putLogo(publisher.slug, big, owner.accessToken);
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).error.code).toBe('logo_too_large');
  });

  it('lets only the owner upload (401 without, 403 for others) and answers 404 when there is no logo', async () => {
    const publisher = await createPublisher(t, owner.accessToken);
    expect((await putLogo(publisher.slug, PNG)).status).toBe(401);
    const agent = await registerAgent(t);
    expect((await putLogo(publisher.slug, PNG, agent.api_key)).status).toBe(403);
    const none = await t.api.get(`/publishers/${publisher.slug}/logo`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('logo_not_found');
    expect(publisher.logo_url).toBeNull();
    expect((await t.api.get('/publishers/nobody-here/logo')).status).toBe(404);
  });
});
