import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Token grants the provider made, by grant type, and those it refused. */
  grants: { authorization_code: number; refresh_token: number; refused: number };
  /** The provider's own userinfo answer for an access token (null when it refuses the token). */
  userinfo(accessToken: string): Promise<{ sub: string } | null>;
  /** A refresh grant with the given token, as another client of the provider would send it. */
  refresh(refreshToken: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the certified `oidc-provider` package) on this machine, with one
 * confidential client registered for the platform's callbacks: PKCE, refresh token rotation with
 * reuse detection, revocation, discovery and signed ID tokens as a production provider has them.
 * Its development interactions (login, then consent) are driven over HTTP by the tests.
 */
export async function startOidcServer(options: { redirectUris: string[] }): Promise<OidcServer> {
  const clientId = 'platform-client';
  const clientSecret = 'platform-client-secret-0123456789abcdef';
  const grants = { authorization_code: 0, refresh_token: 0, refused: 0 };
  let handler: ((req: any, res: any) => void) | null = null;
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Its start-up warnings (in-memory storage, development keys and interactions) are what a test wants.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void (String(args[0]).startsWith('oidc-provider WARNING') || warn(...args));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true, allowedPolicy: async (_ctx: unknown, client: any, token: any) => token.clientId === client.clientId } },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: any) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ttl: { AccessToken: 3600, RefreshToken: 86400, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 86400, IdToken: 3600 },
  });
  console.warn = warn;
  provider.on('grant.success', (ctx: any) => {
    const type = ctx.oidc.params.grant_type as 'authorization_code' | 'refresh_token';
    if (type in grants) grants[type] += 1;
  });
  provider.on('grant.error', () => void (grants.refused += 1));
  handler = provider.callback();
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams(body).toString(),
  });
  return {
    issuer,
    clientId,
    clientSecret,
    grants,
    async userinfo(accessToken) {
      const response = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      return response.ok ? ((await response.json()) as { sub: string }) : null;
    },
    async refresh(refreshToken) {
      const response = await fetch(`${issuer}/token`, form({ grant_type: 'refresh_token', refresh_token: refreshToken }));
      return { status: response.status, body: await response.json() };
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
