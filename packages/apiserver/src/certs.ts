/**
 * A CA generated at start and a serving certificate it signs, for HTTPS on loopback. Keys are
 * ECDSA P-256 from Node's crypto (fast, and accepted by Go's crypto/tls and by Node); the
 * certificates are DER written here, since X.509 needs only a handful of ASN.1 types and the
 * libraries that do it pull in far more than that.
 */
import {
  X509Certificate,
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { isIP } from 'node:net';

export interface CertificateAuthority {
  certPem: string;
  keyPem: string;
}

export interface ServingCertificate {
  caPem: string;
  certPem: string;
  keyPem: string;
}

// --- DER --------------------------------------------------------------------------------------

function tlv(tag: number, value: Buffer): Buffer {
  const len = value.length;
  let header: Buffer;
  if (len < 0x80) header = Buffer.from([tag, len]);
  else {
    const bytes: number[] = [];
    for (let n = len; n > 0; n >>= 8) bytes.unshift(n & 0xff);
    header = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([header, value]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer) => tlv(0x04, b);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);

function integer(b: Buffer): Buffer {
  let v = b;
  while (v.length > 1 && v[0] === 0 && ((v[1] ?? 0) & 0x80) === 0) v = v.subarray(1);
  if (((v[0] ?? 0) & 0x80) !== 0) v = Buffer.concat([Buffer.from([0]), v]);
  return tlv(0x02, v);
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [];
    let v = n;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i] = (chunk[i] ?? 0) | 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const body = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  const y = d.getUTCFullYear();
  // RFC 5280: UTCTime through 2049, GeneralizedTime after.
  return y < 2050
    ? tlv(0x17, Buffer.from(`${p(y % 100)}${body}`))
    : tlv(0x18, Buffer.from(`${y}${body}`));
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
    : ip.split(':');
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g || '0', 16), i * 2));
  return out;
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const name = (cn: string) => seq(set(seq(oid('2.5.4.3'), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer) =>
  critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));

function keyId(spki: Buffer): Buffer {
  return createHash('sha1').update(spki).digest();
}

interface CertParams {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signingKey: KeyObject;
  issuerKeyId: Buffer;
  years: number;
  extensions: Buffer[];
}

function certificate(p: CertParams): string {
  const spki = p.publicKey.export({ format: 'der', type: 'spki' });
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(Date.now() + p.years * 365 * 24 * 60 * 60 * 1000);
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    ECDSA_SHA256,
    name(p.issuer),
    seq(time(notBefore), time(notAfter)),
    name(p.subject),
    spki,
    explicit(
      3,
      seq(
        ...p.extensions,
        extension('2.5.29.14', false, octets(keyId(spki))),
        extension('2.5.29.35', false, seq(tlv(0x80, p.issuerKeyId))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, p.signingKey);
  const der = seq(tbs, ECDSA_SHA256, bits(signature));
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${b64.trimEnd()}\n-----END CERTIFICATE-----\n`;
}

function keyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

// --- certificates -------------------------------------------------------------------------------

export function createCertificateAuthority(
  commonName = 'dcs-apiserver-ca',
): Promise<CertificateAuthority> {
  const { publicKey, privateKey } = keyPair();
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const certPem = certificate({
    subject: commonName,
    issuer: commonName,
    publicKey,
    signingKey: privateKey,
    issuerKeyId: keyId(spki),
    years: 10,
    extensions: [
      extension('2.5.29.19', true, seq(bool(true))),
      // keyCertSign | cRLSign | digitalSignature
      extension('2.5.29.15', true, bits(Buffer.from([0x86]), 1)),
    ],
  });
  return Promise.resolve({
    certPem,
    keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  });
}

/** A serving certificate for the given host names and IPs (loopback is always included). */
export function createServingCertificate(
  ca: CertificateAuthority,
  hosts: readonly string[],
): Promise<ServingCertificate> {
  const caCert = new X509Certificate(ca.certPem);
  const caKey = createPrivateKey(ca.keyPem);
  const caSpki = caCert.publicKey.export({ format: 'der', type: 'spki' });
  const issuer = /CN=([^\n,]+)/.exec(caCert.subject)?.[1] ?? 'dcs-apiserver-ca';
  const { publicKey, privateKey } = keyPair();
  const all = [...new Set(['127.0.0.1', '::1', 'localhost', ...hosts])];
  const san = seq(...all.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, Buffer.from(h)))));
  const certPem = certificate({
    subject: 'dcs-apiserver',
    issuer,
    publicKey,
    signingKey: caKey,
    issuerKeyId: keyId(caSpki),
    years: 2,
    extensions: [
      extension('2.5.29.19', true, seq()),
      // digitalSignature | keyEncipherment
      extension('2.5.29.15', true, bits(Buffer.from([0xa0]), 5)),
      extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
      extension('2.5.29.17', false, san),
    ],
  });
  return Promise.resolve({
    caPem: ca.certPem,
    certPem,
    keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  });
}
