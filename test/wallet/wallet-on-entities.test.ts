import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent, signUpVerified } from '../support/accounts.js';
import { fundWallet } from '../support/funding.js';
import { checkLedgerAfterEach } from '../support/wallet.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());
checkLedgerAfterEach(() => t);

const QUERY = `{ me { id wallet { balance currency } defaultOrganization { id wallet { balance } } organizations: defaultOrganization { id } } organizations { id wallet { balance } } }`;

describe('the wallet on federated entities', () => {
  it('a dashboard reads the user, their organization and the money in one query', async () => {
    const agent = await registerAgent(t);
    await fundWallet(t, agent.id, '2.50');
    const response = await t.api.graphql(QUERY, {}, { token: agent.api_key });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.me).toMatchObject({ wallet: { balance: '2.50', currency: 'USD' }, defaultOrganization: { wallet: { balance: '2.50' } } });
    expect(response.body.data.organizations).toEqual([{ id: agent.organization_id, wallet: { balance: '2.50' } }]);
  });

  it('an organization the caller does not act in shows no wallet', async () => {
    const owner = await signUpVerified(t);
    const invitee = await signUpVerified(t);
    await t.api.graphql('mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { id } }', { input: { organizationId: owner.organizationId, email: invitee.email } }, { token: owner.accessToken });
    await t.api.post('/auth/accept-invite', { token: await t.mailbox.waitForToken(invitee.email, 'accept-invite') }, { token: invitee.accessToken });
    const response = await t.api.graphql('{ organizations { id personal wallet { balance } } }', {}, { token: invitee.accessToken });
    const byId = Object.fromEntries(response.body.data.organizations.map((org: any) => [org.id, org.wallet]));
    expect(byId[owner.organizationId]).toBeNull();
    expect(byId[invitee.organizationId]).toEqual({ balance: '0.00' });
  });
});
