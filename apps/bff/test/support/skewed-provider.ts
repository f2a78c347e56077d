/**
 * The embedded OpenID provider in a process of its own whose clock is SKEW_SECONDS off (its
 * Date.now, which stamps its tokens' iat and exp): the BFF's clock-skew page is tested against it.
 */
import { startEmbeddedOidcProvider } from '@dcs/simulator';

const skew = Number(process.env.SKEW_SECONDS ?? '0') * 1000;
const real = Date.now.bind(Date);
Date.now = () => real() + skew;
const op = await startEmbeddedOidcProvider({ redirectUris: [process.env.REDIRECT_URI ?? ''] });
process.stdout.write(`issuer ${op.issuer}\n`);
