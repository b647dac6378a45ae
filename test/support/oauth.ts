import type { TestPlatform } from './platform.js';

/** Cookies by name, carried by hand between the provider's pages (paths are ignored: one test browser, one provider). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A user's browser at the provider: follows its redirects, signs in as `login` and grants consent
 * on its interaction pages (oidc-provider's development interactions), until the provider sends
 * the browser to the platform's callback. Answers that callback URL.
 */
export async function consentAtProvider(authorizationUrl: string, login: string, callbackPrefix = 'http://app.test/'): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let request: RequestInit = {};
  for (let step = 0; step < 16; step++) {
    const response = await fetch(url, { ...request, redirect: 'manual', headers: { ...(request.headers as object), cookie: jar.header() } });
    jar.store(response);
    request = {};
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      if (url.startsWith(callbackPrefix)) return new URL(url);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || !url.includes('/interaction/')) throw new Error(`provider answered ${response.status} at ${url}: ${page.slice(0, 300)}`);
    const form: Record<string, string> = /value="login"/.test(page) ? { prompt: 'login', login, password: 'any password' } : { prompt: 'consent' };
    request = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() };
  }
  throw new Error('the provider never sent the browser back');
}

export interface LinkedAccount {
  /** Where the platform finally sent the user. */
  landing: URL;
  connectionId: string | null;
  /** The provider's redirect to the platform (replaying it must fail). */
  callback: URL;
}

/** The whole browser flow: authorize at the platform, consent at the provider, callback at the platform. */
export async function linkAccount(t: TestPlatform, token: string, slug: string, login: string, redirectUri = 'https://app.example.com/linked'): Promise<LinkedAccount> {
  const start = await t.api.get(`/oauth/${slug}/authorize?redirect_uri=${encodeURIComponent(redirectUri)}`, { token });
  if (start.status !== 302) throw new Error(`authorize answered ${start.status}: ${JSON.stringify(start.body)}`);
  const callback = await consentAtProvider(start.headers.get('location')!, login);
  const finish = await t.api.get(`${callback.pathname}${callback.search}`);
  if (finish.status !== 302) throw new Error(`callback answered ${finish.status}: ${JSON.stringify(finish.body)}`);
  const landing = new URL(finish.headers.get('location')!);
  return { landing, connectionId: landing.searchParams.get('connection_id'), callback };
}
