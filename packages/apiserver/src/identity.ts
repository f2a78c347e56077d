/**
 * What makes a restarted server the same cluster to its clients: the CA a kubeconfig trusts and
 * the serving certificate and key. With `statePath`, they are kept next to the state file in
 * `<state>.tls.json` (mode 0600: it holds private keys) and reused on the next start, so that a
 * kubeconfig written before a restart still verifies the server after it.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  createCertificateAuthority,
  createServingCertificate,
  type CertificateAuthority,
  type ServingCertificate,
} from './certs';
import { isObject } from './json';

interface TlsFile {
  v: 1;
  ca: CertificateAuthority;
  serving: ServingCertificate & { hosts: string[] };
}

/** Certificates this close to expiry are replaced rather than reused. */
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

function usable(certPem: string): boolean {
  try {
    return new Date(new X509Certificate(certPem).validTo).getTime() - Date.now() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

function read(path: string): TlsFile | undefined {
  if (!existsSync(path)) return undefined;
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isObject(raw) || raw.v !== 1 || !isObject(raw.ca) || !isObject(raw.serving)) {
    throw new Error(`${path}: not a TLS identity file of this server`);
  }
  return raw as unknown as TlsFile;
}

/** Writes the file so that it is never seen half-written, readable by its owner only. */
export function writePrivateFile(path: string, content: string): void {
  const tmp = `${path}.${String(process.pid)}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * The CA and serving certificate kept at `path`, created (and written) when missing. The CA is
 * kept as long as it is valid; the serving certificate is reissued by the same CA when the
 * host names change or it nears expiry (clients trust the CA, so they do not notice).
 */
export async function persistentTls(
  path: string,
  hosts: readonly string[],
  givenCa?: CertificateAuthority,
): Promise<ServingCertificate> {
  const kept = read(path);
  const ca =
    givenCa ?? (kept && usable(kept.ca.certPem) ? kept.ca : await createCertificateAuthority());
  const keptServing = kept?.ca.certPem === ca.certPem ? kept.serving : undefined;
  const sameHosts =
    keptServing?.hosts.length === hosts.length && hosts.every((h) => keptServing.hosts.includes(h));
  if (keptServing && sameHosts && usable(keptServing.certPem)) {
    return { caPem: keptServing.caPem, certPem: keptServing.certPem, keyPem: keptServing.keyPem };
  }
  const serving = await createServingCertificate(ca, hosts);
  const file: TlsFile = { v: 1, ca, serving: { ...serving, hosts: [...hosts] } };
  writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
  return serving;
}
