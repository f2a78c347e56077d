import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { oidcOptionsFromFlags, type OidcOptions } from '@dcs/apiserver';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, {
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';

/**
 * The embedded OpenID provider of `pnpm sim --oidc` and `pnpm start --sso`: panva's certified
 * `oidc-provider` on loopback, with two demo users (an operator and a viewer), its own login and
 * consent pages, authorization code flow with PKCE (S256), refresh tokens, RP-initiated logout
 * and key rotation. The API server trusts it the way kube-apiserver trusts a provider
 * (`oidcTrust`), and binds the demo groups to roles.
 */

export interface DemoUser {
  /** What the login form takes, and the password (the same word: a demo). */
  login: string;
  password: string;
  email: string;
  name: string;
  groups: string[];
}

/** The groups claim and prefix the embedded cluster maps, as `--oidc-groups-*` flags. */
export const OIDC_GROUPS_PREFIX = 'oidc:';
export const OPERATORS_GROUP = 'dcs-operators';
export const VIEWERS_GROUP = 'dcs-viewers';

export const DEMO_USERS: readonly DemoUser[] = [
  {
    login: 'operator',
    password: 'operator',
    email: 'operator@dcs.example',
    name: 'Olga Operator',
    groups: [OPERATORS_GROUP],
  },
  {
    login: 'viewer',
    password: 'viewer',
    email: 'viewer@dcs.example',
    name: 'Victor Viewer',
    groups: [VIEWERS_GROUP],
  },
];

/** The console's client: public (PKCE), so that a kubeconfig may use it without a secret. */
export const CONSOLE_CLIENT_ID = 'dcs-console';

export interface EmbeddedOidcOptions {
  host?: string;
  /** 0 = a free port. */
  port?: number;
  /** Where the console may return to after sign-in (its exact redirect URIs). */
  redirectUris?: string[];
  /** Where it may return to after sign-out. */
  postLogoutRedirectUris?: string[];
  /** Further clients (a confidential one in tests). */
  clients?: ClientMetadata[];
  /** ID and access tokens live this long (default 300 s): refresh is exercised in minutes. */
  tokenTtlSeconds?: number;
}

export interface EmbeddedOidcProvider {
  issuer: string;
  port: number;
  clientId: string;
  users: readonly DemoUser[];
  /** A new signing key signs from now on; the previous one stays published (as rotations go). */
  rotateKeys(opts?: { dropOld?: boolean }): Promise<void>;
  /** Stops answering (an outage) and starts again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Ends every grant: the next refresh is refused (as an administrator's revocation). */
  revokeAll(): Promise<void>;
  close(): Promise<void>;
}

/** kube-apiserver's flags for trusting this provider (the embedded cluster's `--oidc-*`). */
export function oidcTrustFlags(issuer: string, clientId = CONSOLE_CLIENT_ID) {
  return {
    'oidc-issuer-url': issuer,
    'oidc-client-id': clientId,
    'oidc-username-claim': 'email',
    'oidc-groups-claim': 'groups',
    'oidc-groups-prefix': OIDC_GROUPS_PREFIX,
  };
}

/** What the embedded cluster's `oidc` option takes to trust this provider. */
export function oidcTrust(issuer: string, clientId = CONSOLE_CLIENT_ID): OidcOptions {
  const o = oidcOptionsFromFlags(oidcTrustFlags(issuer, clientId), () => '');
  if (!o) throw new Error('no OIDC options');
  return o;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(6).toString('base64url'),
    alg: 'RS256',
    use: 'sig',
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0}main{max-width:360px;margin:64px auto;background:#fff;padding:24px 32px;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.2)}label{display:block;margin:12px 0 4px}input{width:100%;padding:8px;box-sizing:border-box}button{margin-top:16px;padding:8px 16px}.error{color:#b00020}.hint{color:#555;font-size:.9em}</style>
</head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(c);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(html);
}

/** In-memory storage that outlives a provider instance (key rotation builds a new one). */
class Store {
  readonly models = new Map<
    string,
    Map<string, { payload: Record<string, unknown>; exp: number }>
  >();
  of(model: string) {
    let m = this.models.get(model);
    if (!m) {
      m = new Map<string, { payload: Record<string, unknown>; exp: number }>();
      this.models.set(model, m);
    }
    return m;
  }
}

function adapterFor(store: Store) {
  return class MemoryAdapter {
    readonly #m: Map<string, { payload: Record<string, unknown>; exp: number }>;
    readonly #name: string;
    constructor(name: string) {
      this.#name = name;
      this.#m = store.of(name);
    }
    #live(id: string) {
      const e = this.#m.get(id);
      if (!e) return undefined;
      if (e.exp && e.exp < Date.now()) {
        this.#m.delete(id);
        return undefined;
      }
      return e.payload;
    }
    upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
      this.#m.set(id, { payload, exp: expiresIn ? Date.now() + expiresIn * 1000 : 0 });
      if (typeof payload.grantId === 'string' && this.#name !== 'Grant') {
        const grants = store.of('_grantMembers');
        const members = (grants.get(payload.grantId)?.payload.ids as string[] | undefined) ?? [];
        grants.set(payload.grantId, {
          payload: { ids: [...members, `${this.#name}:${id}`] },
          exp: 0,
        });
      }
      return Promise.resolve();
    }
    find(id: string) {
      return Promise.resolve(this.#live(id));
    }
    findByUserCode(code: string) {
      for (const [id, e] of this.#m) if (e.payload.userCode === code) return this.find(id);
      return Promise.resolve(undefined);
    }
    findByUid(uid: string) {
      for (const [id, e] of this.#m) if (e.payload.uid === uid) return this.find(id);
      return Promise.resolve(undefined);
    }
    consume(id: string): Promise<void> {
      const e = this.#m.get(id);
      if (e) e.payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string): Promise<void> {
      this.#m.delete(id);
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string): Promise<void> {
      const grants = store.of('_grantMembers');
      for (const member of (grants.get(grantId)?.payload.ids as string[] | undefined) ?? []) {
        const [model = '', id = ''] = member.split(':');
        store.of(model).delete(id);
      }
      grants.delete(grantId);
      store.of('Grant').delete(grantId);
      return Promise.resolve();
    }
  };
}

export async function startEmbeddedOidcProvider(
  o: EmbeddedOidcOptions = {},
): Promise<EmbeddedOidcProvider> {
  const host = o.host ?? '127.0.0.1';
  const store = new Store();
  const users = DEMO_USERS;
  let keys: JWK[] = [await signingKey()];
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const ttl = o.tokenTtlSeconds ?? 300;
  let provider: Provider;
  let issuer = '';

  const configuration = (): Configuration => ({
    adapter: adapterFor(store),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        client_name: 'DCS node pool console',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // kubectl oidc-login listens on localhost:8000, then 18000.
        redirect_uris: [
          ...(o.redirectUris ?? []),
          'http://localhost:8000',
          'http://localhost:18000',
        ],
        post_logout_redirect_uris: o.postLogoutRedirectUris ?? [],
      },
      ...(o.clients ?? []),
    ],
    jwks: { keys },
    cookies: { keys: cookieKeys },
    findAccount: (_ctx, sub) => {
      const user = users.find((u) => u.login === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: user.email,
          email_verified: true,
          name: user.name,
          preferred_username: user.login,
          groups: user.groups,
        }),
      };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
    // The ID token carries the granted scopes' claims: it is what the API server reads.
    conformIdTokenClaims: false,
    // A refresh token for every client allowed the grant, without prompt=consent's ceremony.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => true },
    ttl: {
      IdToken: ttl,
      AccessToken: ttl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      RefreshToken: 8 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.body = page(
            'Sign out',
            `${form}<p>Sign out of the demo provider?</p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
          );
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.body = page('Signed out', '<p>You are signed out of the demo provider.</p>');
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<p class="error">${esc(out.error)}: ${esc(out.error_description ?? '')}</p>`,
      );
    },
  });

  const build = () => new Provider(issuer, configuration());

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) {
      send(res, 400, page('Sign-in error', '<p class="error">This sign-in has expired.</p>'));
      return;
    }
    const prompt = details.prompt.name;
    if (req.method === 'GET') {
      if (prompt === 'login') {
        send(res, 200, loginPage(uid, details.params.login_hint as string | undefined));
        return;
      }
      const client = details.params.client_id as string;
      send(res, 200, consentPage(uid, client, (details.params.scope as string).split(' ')));
      return;
    }
    const form = await readForm(req);
    if (prompt === 'login') {
      const login = form.get('login') ?? '';
      const user = users.find((u) => u.login === login && u.password === form.get('password'));
      if (!user) {
        send(res, 200, loginPage(uid, login, 'Unknown user or wrong password.'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.login } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    if (form.get('decision') !== 'allow') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'the user refused consent' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = details.session?.accountId ?? '';
    const clientId = details.params.client_id as string;
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId, clientId }))
      : new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      {
        mergeWithLastSubmission: true,
      },
    );
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (m?.[1]) {
      interaction(req, res, m[1]).catch((error: unknown) => {
        send(res, 400, page('Sign-in error', `<p class="error">${esc(String(error))}</p>`));
      });
      return;
    }
    void provider.callback()(req, res);
  };

  let server: Server = createServer(handler);
  const listen = (port: number) =>
    new Promise<number>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolveListen((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(o.port ?? 0);
  issuer = `http://${host}:${String(port)}`;
  provider = build();
  const closeServer = () =>
    new Promise<void>((r) => {
      server.close(() => {
        r();
      });
      server.closeAllConnections();
    });

  return {
    issuer,
    port,
    clientId: CONSOLE_CLIENT_ID,
    users,
    rotateKeys: async (opts = {}) => {
      const next = await signingKey();
      keys = opts.dropOld ? [next] : [next, ...keys];
      provider = build();
    },
    stop: closeServer,
    start: async () => {
      server = createServer(handler);
      await listen(port);
    },
    revokeAll: () => {
      for (const model of ['Grant', 'Session', 'RefreshToken', 'AccessToken', 'AuthorizationCode'])
        store.of(model).clear();
      return Promise.resolve();
    },
    close: closeServer,
  };
}

function loginPage(uid: string, login = '', error = ''): string {
  const hints = DEMO_USERS.map((u) => `<code>${esc(u.login)}</code>`).join(' or ');
  return page(
    'Sign in to the demo provider',
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}">
<label for="login">Username</label><input id="login" name="login" autocomplete="username" value="${esc(login)}" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<p class="hint">Demo users: ${hints}; each one's password is its name.</p>`,
  );
}

function consentPage(uid: string, client: string, scopes: string[]): string {
  return page(
    'Allow access?',
    `<p><strong>${esc(client)}</strong> asks to sign you in and read: ${scopes.map((s) => `<code>${esc(s)}</code>`).join(', ')}.</p>
<form method="post" action="/interaction/${esc(uid)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}
