import { CookieJar, signInAtProvider, type BrowserSignIn } from '@dcs/simulator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A browser-like session against an app: cookies kept between requests, CSRF token echoed. */
export class TestSession {
  readonly #app: FastifyInstance;
  readonly cookies = new Map<string, string>();
  csrf = '';
  origin: string | undefined = 'http://localhost:80';
  authorization: string | undefined;

  constructor(app: FastifyInstance) {
    this.#app = app;
  }

  #keep(res: LightMyRequestResponse): void {
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0)) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    o: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      host: 'localhost:80',
      ...(this.origin !== undefined && method !== 'GET' ? { origin: this.origin } : {}),
      ...(this.authorization ? { authorization: this.authorization } : {}),
      ...((o.csrf ?? true) && this.csrf ? { 'x-csrf-token': this.csrf } : {}),
      ...o.headers,
    };
    const res = await this.#app.inject({
      method,
      url,
      headers,
      cookies: Object.fromEntries(this.cookies),
      ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    });
    this.#keep(res);
    return res;
  }

  /** GET /api/v1/session: the CSRF cookie and token (and who we are). */
  async start(): Promise<LightMyRequestResponse> {
    const res = await this.request('GET', '/api/v1/session');
    this.csrf = res.json<{ csrfToken: string }>().csrfToken;
    return res;
  }

  async signIn(token: string): Promise<LightMyRequestResponse> {
    await this.start();
    const res = await this.request('POST', '/api/v1/session', { token });
    if (res.statusCode === 200) this.csrf = res.json<{ csrfToken: string }>().csrfToken;
    return res;
  }

  /** The provider's cookies (its session), kept across sign-ins and for its sign-out page. */
  readonly provider = new CookieJar();

  /**
   * OIDC mode: the console's login redirect, the provider's own pages (as a browser would), the
   * callback; returns the callback's answer (a 303 to the console, or to /sign-in?sso_error=…).
   */
  async signInSso(
    who: BrowserSignIn,
    redirectUri: string,
    next = '/',
  ): Promise<LightMyRequestResponse> {
    const login = await this.request(
      'GET',
      `/api/v1/session/oidc/login?next=${encodeURIComponent(next)}`,
    );
    const to = login.headers.location;
    if (login.statusCode !== 303 || typeof to !== 'string') return login;
    if (to.startsWith('/')) return login;
    const back = new URL(await signInAtProvider(to, redirectUri, who, this.provider));
    const res = await this.request('GET', `${back.pathname}${back.search}`);
    if (res.statusCode === 303 && !String(res.headers.location).startsWith('/sign-in')) {
      await this.start();
    }
    return res;
  }
}
