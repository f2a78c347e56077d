/**
 * Starts the BFF for a test stack:
 * `tsx support/serve-bff.ts KUBECONFIG PORT STATIC_DIR TIME_SCALE [PROVIDER_VERSION]`.
 * Token mode, as a real deployment runs it, so that sign-in and the viewer's rights are real. A
 * machine counts as stuck (T-1) after 10 simulated minutes, as the launcher sets it for `pnpm start`.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '@dcs/bff/src/app';
import { embeddedSsoEnv, loadConfig, stuckAfterForTimeScale } from '@dcs/bff/src/config/env';

const [kubeconfig = '', port = '0', staticDir = '', timeScale = '1', providerVersion] =
  process.argv.slice(2);

async function main() {
  // An `sso` stack (issue 27): OIDC mode against the simulator's embedded provider.
  const issuer = process.env.E2E_SSO_ISSUER;
  const sessionKey = randomBytes(32).toString('base64');
  const sso = issuer
    ? embeddedSsoEnv(issuer, 'dcs-console', process.env.E2E_CONSOLE_URL ?? '', sessionKey)
    : {};
  const config = loadConfig({
    argv: [
      '--kubeconfig',
      kubeconfig,
      '--port',
      port,
      '--host',
      '127.0.0.1',
      '--auth-mode',
      issuer ? 'oidc' : 'token',
      '--stuck-after',
      stuckAfterForTimeScale(Number(timeScale)),
      ...(providerVersion ? ['--provider-version', providerVersion] : []),
    ],
    env: {
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      SESSION_KEYS: sessionKey,
      ...sso,
      // Journeys sign in and mutate far more often than a person would.
      SIGNIN_RATE_PER_MINUTE: '1000',
      MUTATION_RATE_PER_MINUTE: '1000',
    },
  });
  const app = await buildApp({ config });
  await app.listen({ host: config.host, port: config.port });
  process.stdout.write(`bff: ready http://127.0.0.1:${config.port}\n`);
  const stop = () => {
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
