import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration';
import { ConfigError, launcherSettings, listenOptionsOf, loadConfig } from './env';

const base = { HOST: '127.0.0.1', KUBECONFIG: '/tmp/kubeconfig' };

describe('durations', () => {
  it('parses what operators write: 10m, 90s, 20s, 1m30s, 250ms', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('20s')).toBe(20_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    for (const bad of ['', '10', 'm', '10 m', '10x', '-5s', '10m ago']) {
      expect(parseDuration(bad), bad).toBeUndefined();
    }
  });

  it('formats exactly, in the largest whole unit', () => {
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(20_000)).toBe('20s');
    expect(formatDuration(37_500)).toBe('37500ms');
    for (const ms of [600_000, 20_000, 37_500, 1])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});

describe('T-1 threshold: --stuck-after / STUCK_AFTER', () => {
  it('defaults to 10 minutes', () => {
    expect(loadConfig({ env: base }).stuckAfterMs).toBe(600_000);
  });

  it('reads STUCK_AFTER, and --stuck-after over it', () => {
    expect(loadConfig({ env: { ...base, STUCK_AFTER: '90s' } }).stuckAfterMs).toBe(90_000);
    expect(
      loadConfig({ env: { ...base, STUCK_AFTER: '90s' }, argv: ['--stuck-after', '20s'] })
        .stuckAfterMs,
    ).toBe(20_000);
  });

  it('refuses what is not a positive duration', () => {
    for (const bad of ['10', 'soon', '0s']) {
      expect(() => loadConfig({ env: { ...base, STUCK_AFTER: bad } }), bad).toThrow(ConfigError);
    }
  });
});

describe('launcher settings', () => {
  it('passes --capi-release to the simulator, not to the BFF (issue 23)', () => {
    const s = launcherSettings(['--port', '9000', '--capi-release', 'v1.16'], {
      SIM_ARGS: '--seed demo',
    });
    expect(s.simArgs).toEqual(['--seed', 'demo', '--capi-release', 'v1.16']);
    expect(s.bffArgs).toEqual(['--port', '9000']);
    expect(launcherSettings(['--capi-release=v1.10'], {}).bffArgs).toEqual([]);
  });

  it('passes 10 simulated minutes for the embedded simulator’s --time-scale X (10m / X)', () => {
    expect(launcherSettings([], { SIM_ARGS: '--time-scale 30' }).stuckAfter).toBe('20s');
    expect(launcherSettings([], { SIM_ARGS: '--seed demo --time-scale=20' }).stuckAfter).toBe(
      '30s',
    );
    expect(launcherSettings([], { SIM_ARGS: '--time-scale 7' }).stuckAfter).toBe('85714ms');
  });

  it('leaves the default alone without a time scale, and the user’s own value always', () => {
    expect(launcherSettings([], {}).stuckAfter).toBeUndefined();
    expect(launcherSettings([], { SIM_ARGS: '--time-scale 1' }).stuckAfter).toBeUndefined();
    expect(
      launcherSettings(['--stuck-after', '5m'], { SIM_ARGS: '--time-scale 30' }).stuckAfter,
    ).toBeUndefined();
    expect(
      launcherSettings([], { SIM_ARGS: '--time-scale 30', STUCK_AFTER: '5m' }).stuckAfter,
    ).toBeUndefined();
  });

  it('starts no simulator for a kubeconfig given as a flag or in the environment', () => {
    expect(launcherSettings(['--kubeconfig', 'k']).kubeconfig).toBe('k');
    expect(launcherSettings(['--kubeconfig=k2'], {}).kubeconfig).toBe('k2');
    expect(launcherSettings([], { KUBECONFIG: 'k3' }).kubeconfig).toBe('k3');
  });
});

describe('command lines as pnpm passes them on (issue 13 item 3)', () => {
  it('reads the flags after the `--` of `pnpm start -- --kubeconfig FILE --context NAME`', () => {
    const argv = ['--', '--kubeconfig', '/tmp/mgmt.yaml', '--context', 'mgmt-admin'];
    const config = loadConfig({ env: { HOST: '127.0.0.1' }, argv });
    expect(config.connection).toEqual({
      kind: 'kubeconfig',
      file: '/tmp/mgmt.yaml',
      context: 'mgmt-admin',
    });
    expect(launcherSettings(argv, {}).kubeconfig).toBe('/tmp/mgmt.yaml');
  });

  it('still refuses an unknown flag, with or without the `--`', () => {
    expect(() => loadConfig({ env: base, argv: ['--', '--kubecfg', 'k'] })).toThrow(ConfigError);
    expect(() => loadConfig({ env: base, argv: ['--', '--kubecfg', 'k'] })).toThrow(/--kubecfg/);
    expect(() => loadConfig({ env: base, argv: ['--kubecfg', 'k'] })).toThrow(/--kubecfg/);
  });
});

describe('listen backlog: LISTEN_BACKLOG (issue 14)', () => {
  it('defaults to 4096 and refuses a value out of range, naming the variable', () => {
    expect(loadConfig({ env: base }).listenBacklog).toBe(4096);
    expect(loadConfig({ env: { ...base, LISTEN_BACKLOG: '128' } }).listenBacklog).toBe(128);
    for (const bad of ['0', '-1', 'many', '70000'])
      expect(() => loadConfig({ env: { ...base, LISTEN_BACKLOG: bad } }), bad).toThrow(
        /LISTEN_BACKLOG/,
      );
  });

  // ss (iproute2) reads the backlog of a listening socket; Linux only.
  const hasSs = (() => {
    try {
      execFileSync('ss', ['-V'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.runIf(process.platform === 'linux' && hasSs)(
    'serve listens with it: the kernel holds that many connections, not Node default 511 (a reconnect storm of thousands was reset)',
    async () => {
      const app = Fastify();
      try {
        const config = { ...loadConfig({ env: base }), port: 0 };
        await app.listen(listenOptionsOf(config));
        const port = (app.server.address() as { port: number }).port;
        // For a listening socket, ss shows the backlog as Send-Q; the kernel caps it at somaxconn.
        const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
        const line = execFileSync('ss', ['-ltnH', `sport = :${String(port)}`], {
          encoding: 'utf8',
        });
        const sendQ = Number(line.trim().split(/\s+/)[2]);
        expect(sendQ).toBe(Math.min(4096, somaxconn));
      } finally {
        await app.close();
      }
    },
  );
});

describe('OIDC mode settings (issue 27)', () => {
  const key = Buffer.alloc(32, 1).toString('base64');
  const oidc = {
    ...base,
    AUTH_MODE: 'oidc',
    SESSION_KEYS: key,
    OIDC_ISSUER_URL: 'https://idp.example.com/realms/ops',
    OIDC_CLIENT_ID: 'console',
    OIDC_REDIRECT_URI: 'https://console.example.com/api/v1/session/oidc/callback',
  };

  it('reads the provider, the client and the claims mapping, with defaults', () => {
    const c = loadConfig({ env: { ...oidc, OIDC_GROUPS_CLAIM: 'groups' } });
    expect(c.authMode).toBe('oidc');
    expect(c.oidc).toMatchObject({
      issuerUrl: 'https://idp.example.com/realms/ops',
      clientId: 'console',
      clientSecret: undefined,
      postLogoutRedirectUri: 'https://console.example.com/sign-in',
      scopes: ['openid', 'email', 'profile', 'offline_access'],
      present: 'id_token',
      usernameClaim: 'sub',
      groupsClaim: 'groups',
      refreshBeforeMs: 60_000,
      kubectlClientId: 'console',
    });
    const secret = loadConfig({
      env: { ...oidc, OIDC_CLIENT_SECRET_FILE: '/s' },
      readFile: () => 'from-a-file\n',
    });
    expect(secret.oidc?.clientSecret).toBe('from-a-file');
  });

  it('names what is missing or wrong', () => {
    expect(() => loadConfig({ env: { ...oidc, OIDC_CLIENT_ID: undefined } })).toThrow(
      /oidc mode needs OIDC_CLIENT_ID/,
    );
    expect(() => loadConfig({ env: { ...oidc, SESSION_KEYS: undefined } })).toThrow(
      /oidc mode needs SESSION_KEYS/,
    );
    expect(() =>
      loadConfig({ env: { ...oidc, OIDC_ISSUER_URL: 'http://idp.example.com' } }),
    ).toThrow(/OIDC_ISSUER_URL must be https/);
    expect(() =>
      loadConfig({ env: { ...oidc, OIDC_REDIRECT_URI: 'https://console.example.com/callback' } }),
    ).toThrow(/OIDC_REDIRECT_URI must be the console's \/api\/v1\/session\/oidc\/callback/);
    expect(() => loadConfig({ env: { ...oidc, OIDC_SCOPES: 'email' } })).toThrow(
      /OIDC_SCOPES must include openid/,
    );
    expect(() => loadConfig({ env: { ...oidc, OIDC_PRESENT: 'refresh_token' } })).toThrow(
      /OIDC_PRESENT/,
    );
    expect(
      loadConfig({ env: { ...oidc, OIDC_ISSUER_URL: 'http://127.0.0.1:5556' } }).oidc?.issuerUrl,
    ).toBe('http://127.0.0.1:5556');
  });
});

describe('pnpm start --sso (issue 27)', () => {
  it('asks the simulator for its provider with the console’s exact redirect URI, and keeps --sso from the BFF', () => {
    const s = launcherSettings(['--sso', '--port', '9000'], {});
    expect(s.sso).toEqual({ consoleUrl: 'http://127.0.0.1:9000' });
    expect(s.bffArgs).toEqual(['--port', '9000']);
    expect(s.simArgs).toEqual([
      '--oidc',
      '--oidc-redirect-uri',
      'http://127.0.0.1:9000/api/v1/session/oidc/callback',
      '--oidc-post-logout-redirect-uri',
      'http://127.0.0.1:9000/sign-in',
    ]);
    expect(launcherSettings([], {}).sso).toBeUndefined();
    expect(() => launcherSettings(['--sso'], { PORT: '0' })).toThrow(/--sso needs a fixed port/);
  });
});
