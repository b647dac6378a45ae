import { signUpVerified, type Platformish, type SignedInUser } from './accounts.js';

/** An owner's organization and another user invited into it as an admin, holding an API key made in it. */
export async function organizationWithAdminKey(t: Platformish): Promise<{ owner: SignedInUser; admin: SignedInUser; key: string }> {
  const owner = await signUpVerified(t);
  const admin = await signUpVerified(t);
  await t.api.graphql(
    'mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { id } }',
    { input: { organizationId: owner.organizationId, email: admin.email, role: 'admin' } },
    { token: owner.accessToken },
  );
  const token = await t.mailbox.waitForToken(admin.email, 'accept-invite');
  const accepted = await t.api.post('/auth/accept-invite', { token }, { token: admin.accessToken });
  if (accepted.status !== 200) throw new Error(`accept-invite failed: ${JSON.stringify(accepted.body)}`);
  const key = (await t.api.post(`/organizations/${owner.organizationId}/api-keys`, { name: 'ops' }, { token: admin.accessToken })).body.data.key as string;
  return { owner, admin, key };
}
