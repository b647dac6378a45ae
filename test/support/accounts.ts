import { randomBytes } from 'node:crypto';
import type { TestPlatform } from './platform.js';

/** What the helpers need of a platform: its HTTP API and the mails it wrote (in one process or split). */
export type Platformish = Pick<TestPlatform, 'api' | 'mailbox'>;

export const PASSWORD = 'a sturdy passphrase 42';

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.test`;

export interface SignedInUser {
  id: string;
  email: string;
  organizationId: string;
  accessToken: string;
  refreshToken: string;
}

/** Signs up, follows the mailed link and returns the signed-in session. */
export async function signUpVerified(t: Platformish, email = uniqueEmail(), password = PASSWORD): Promise<SignedInUser> {
  const signup = await t.api.post('/auth/signup', { email, password });
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const token = await t.mailbox.waitForToken(email, 'verify-email');
  const verified = await t.api.post('/auth/verify-email', { token });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  const data = verified.body.data;
  return {
    id: data.user.id,
    email,
    organizationId: data.user.default_organization.id,
    accessToken: data.access_token,
    refreshToken: data.refresh_token,
  };
}

export async function registerAgent(t: Platformish, body: Record<string, unknown> = {}) {
  const response = await t.api.post('/auth/agent', body);
  if (response.status !== 201) throw new Error(`agent registration failed: ${JSON.stringify(response.body)}`);
  return response.body.data.agent as { id: string; api_key: string; organization_id: string; email: string | null };
}
