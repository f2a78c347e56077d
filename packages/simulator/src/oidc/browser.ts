/**
 * A browser's part of a sign-in at the embedded provider, over plain HTTP (tests and the BFF's
 * suites): follows the provider's redirects with its cookies, fills its own login form and
 * answers its consent page, and stops at the redirect back to the client, which it returns.
 */
export interface BrowserSignIn {
  login: string;
  password?: string;
  /** The answer on the consent page (default allow). */
  consent?: 'allow' | 'deny';
}

export class CookieJar {
  readonly #cookies = new Map<string, string>();
  add(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line))
        this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The URL the provider sends the browser back to (`redirectUri?code=…&state=…` or `?error=…`). */
export async function signInAtProvider(
  authorizationUrl: string,
  redirectUri: string,
  who: BrowserSignIn,
  jar = new CookieJar(),
): Promise<string> {
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(redirectUri)) return url;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
    jar.add(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) {
      throw new Error(
        `the provider answered ${String(res.status)} at ${url}: ${html.slice(0, 300)}`,
      );
    }
    const form = new URLSearchParams();
    if (html.includes('name="password"')) {
      if (html.includes('role="alert"')) throw new Error(`sign-in refused for ${who.login}`);
      form.set('login', who.login);
      form.set('password', who.password ?? who.login);
    } else {
      form.set('decision', who.consent ?? 'allow');
    }
    url = new URL(action, url).toString();
    method = 'POST';
    body = form.toString();
  }
  throw new Error('the provider redirected more than 20 times');
}
