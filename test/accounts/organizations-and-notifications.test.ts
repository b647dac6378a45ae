import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

const INVITE = 'mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { id email role } }';

describe('organizations', () => {
  it('lists the organizations the caller belongs to, with the caller’s role', async () => {
    const user = await signUpVerified(t);
    const response = await t.api.get('/organizations', { token: user.accessToken });
    expect(response.body.data).toEqual([expect.objectContaining({ id: user.organizationId, personal: true, role: 'owner' })]);
    expect((await t.api.get('/organizations')).status).toBe(401);
  });

  it('an admin invites by e-mail; the invitee accepts the mailed link, is notified, and becomes a member', async () => {
    const owner = await signUpVerified(t);
    const invitee = await signUpVerified(t);
    const invited = await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: invitee.email } }, { token: owner.accessToken });
    expect(invited.body.errors).toBeUndefined();
    expect(invited.body.data.inviteToOrganization).toMatchObject({ email: invitee.email, role: 'member' });
    const token = await t.mailbox.waitForToken(invitee.email, 'accept-invite');

    const notifications = await t.api.get('/notifications', { token: invitee.accessToken });
    expect(notifications.body.data[0]).toMatchObject({ kind: 'organization.invitation', read_at: null });

    const accepted = await t.api.post('/auth/accept-invite', { token }, { token: invitee.accessToken });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ organization: { id: owner.organizationId }, role: 'member' });
    const orgs = await t.api.get('/organizations', { token: invitee.accessToken });
    expect(orgs.body.data.map((o: any) => o.id)).toContain(owner.organizationId);

    const again = await t.api.post('/auth/accept-invite', { token }, { token: invitee.accessToken });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invite_already_accepted');
  });

  it('accept-invite: 400 malformed, 404 unknown, 401 anonymous, 403 for another address', async () => {
    const owner = await signUpVerified(t);
    const invitee = await signUpVerified(t);
    const other = await signUpVerified(t);
    await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: invitee.email } }, { token: owner.accessToken });
    const token = await t.mailbox.waitForToken(invitee.email, 'accept-invite');
    expect((await t.api.post('/auth/accept-invite', { token: 'x' }, { token: other.accessToken })).status).toBe(400);
    expect((await t.api.post('/auth/accept-invite', { token: 'C'.repeat(43) }, { token: other.accessToken })).status).toBe(404);
    expect((await t.api.post('/auth/accept-invite', { token })).status).toBe(401);
    const mismatch = await t.api.post('/auth/accept-invite', { token }, { token: other.accessToken });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error.code).toBe('invite_email_mismatch');
  });

  it('two invitations accepted at once make one membership; an admin invitation raises a member to admin, a member one never lowers it', async () => {
    const owner = await signUpVerified(t);
    const invitee = await signUpVerified(t);
    // All sent before the invitee joins (once a member, no more can be sent).
    for (const role of ['member', 'member', 'admin', 'member']) {
      await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: invitee.email, role } }, { token: owner.accessToken });
    }
    await t.mailbox.waitForLink(invitee.email, 'accept-invite', 4);
    const [first, second, admin, late] = t.mailbox
      .to(invitee.email)
      .flatMap((mail) => mail.links)
      .filter((link) => link.includes('/accept-invite?'))
      .map((link) => new URL(link).searchParams.get('token')!);
    const accept = (token: string) => t.api.post('/auth/accept-invite', { token }, { token: invitee.accessToken });
    const raced = await Promise.all([accept(first!), accept(second!)]);
    expect(raced.map((response) => response.status)).toEqual([200, 200]);
    expect(raced.map((response) => response.body.data.role)).toEqual(['member', 'member']);
    expect((await accept(admin!)).body.data.role).toBe('admin');
    expect((await accept(late!)).body.data.role).toBe('admin');
    const orgs = await t.api.get('/organizations', { token: invitee.accessToken });
    expect(orgs.body.data.filter((o: any) => o.id === owner.organizationId)).toEqual([expect.objectContaining({ role: 'admin' })]);
  });

  it('"default" in an API-key path is the caller\'s default organization: a key of another organization it manages is not found there', async () => {
    const owner = await signUpVerified(t);
    const admin = await signUpVerified(t);
    await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: admin.email, role: 'admin' } }, { token: owner.accessToken });
    const token = await t.mailbox.waitForToken(admin.email, 'accept-invite');
    expect((await t.api.post('/auth/accept-invite', { token }, { token: admin.accessToken })).status).toBe(200);
    const created = await t.api.post('/organizations/default/api-keys', { name: 'owner key' }, { token: owner.accessToken });
    const keyPath = (organization: string) => `/organizations/${organization}/api-keys/${created.body.data.api_key.id}`;

    const viaDefault = await t.api.delete(keyPath('default'), { token: admin.accessToken });
    expect([viaDefault.status, viaDefault.body.error?.code]).toEqual([404, 'api_key_not_found']);
    expect((await t.api.get('/auth/me', { token: created.body.data.key })).status).toBe(200);
    const viaItsOrganization = await t.api.delete(keyPath(owner.organizationId), { token: admin.accessToken });
    expect(viaItsOrganization.status).toBe(200);
  });

  it('invitations are limited per address (5 an hour) and per inviter (50 an hour): 429 with Retry-After', async () => {
    const owner = await signUpVerified(t);
    const target = `spammed-${Date.now()}@example.test`;
    const invite = (email: string) => t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email } }, { token: owner.accessToken });
    for (let i = 0; i < 5; i++) expect((await invite(target)).body.errors).toBeUndefined();
    expect((await invite(target)).body.errors![0].extensions).toMatchObject({ code: 'rate_limited', status: 429 });
    const other = await signUpVerified(t);
    const byOther = (email: string) => t.api.graphql(INVITE, { input: { organizationId: other.organizationId, email } }, { token: other.accessToken });
    for (let i = 0; i < 50; i++) expect((await byOther(`many-${i}-${Date.now()}@example.test`)).body.errors).toBeUndefined();
    expect((await byOther(`one-more-${Date.now()}@example.test`)).body.errors![0].extensions).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('only an owner or admin can invite; a non-member is told the organization does not exist', async () => {
    const owner = await signUpVerified(t);
    const stranger = await signUpVerified(t);
    const response = await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: 'x@example.test' } }, { token: stranger.accessToken });
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'organization_not_found', status: 404 });
    const agent = await registerAgent(t);
    const withKey = await t.api.graphql(INVITE, { input: { organizationId: agent.organization_id, email: 'x@example.test' } }, { token: agent.api_key });
    expect(withKey.body.errors![0].extensions.status).toBe(403);
  });
});

describe('notifications', () => {
  it('marks the caller’s notification read; another user’s or an unknown id is 404', async () => {
    const owner = await signUpVerified(t);
    const invitee = await signUpVerified(t);
    await t.api.graphql(INVITE, { input: { organizationId: owner.organizationId, email: invitee.email } }, { token: owner.accessToken });
    const [notification] = (await t.api.get('/notifications', { token: invitee.accessToken })).body.data;
    const read = await t.api.post(`/notifications/${notification.id}/read`, undefined, { token: invitee.accessToken });
    expect(read.status).toBe(200);
    expect(read.body.data.read_at).not.toBeNull();
    expect((await t.api.get('/notifications?unread_only=true', { token: invitee.accessToken })).body.data).toHaveLength(0);
    expect((await t.api.post(`/notifications/${notification.id}/read`, undefined, { token: owner.accessToken })).status).toBe(404);
    expect((await t.api.post('/notifications/00000000-0000-4000-8000-000000000000/read', undefined, { token: owner.accessToken })).status).toBe(404);
    expect((await t.api.post('/notifications/not-a-uuid/read', undefined, { token: owner.accessToken })).status).toBe(404);
    expect((await t.api.post(`/notifications/${notification.id}/read`)).status).toBe(401);
  });
});

describe('account security and databases', () => {
  it('shows password presence, verification and sessions; an agent has no password', async () => {
    const user = await signUpVerified(t);
    const security = await t.api.get('/auth/account-security', { token: user.accessToken });
    expect(security.body.data).toEqual({ has_password: true, email_verified: true, linked_providers: [], active_sessions: 1 });
    const agent = await registerAgent(t);
    expect((await t.api.get('/auth/account-security', { token: agent.api_key })).body.data.has_password).toBe(false);
  });

  it('GET /databases lists the organization’s databases with project and branch (none yet)', async () => {
    const agent = await registerAgent(t);
    expect(await t.api.get('/databases', { token: agent.api_key })).toMatchObject({ status: 200, body: { data: [] } });
    expect((await t.api.get('/databases')).status).toBe(401);
  });
});
