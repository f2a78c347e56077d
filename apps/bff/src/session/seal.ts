import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption of small JSON payloads for cookies: AES-256-GCM with node:crypto.
 *
 * Layout (base64url): version(1) | keyId(4) | iv(12) | tag(16) | ciphertext. The key id (a hash
 * prefix) picks the key without trial decryption; the first key of the list seals, every key
 * opens, so keys rotate by prepending a new one and dropping the oldest later. The purpose (the
 * cookie's name) is bound as additional data, so a CSRF cookie can never pass for a session.
 */

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 4;
const HEADER = 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES;

const keyIdOf = (key: Buffer): Buffer =>
  createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);

export class Sealer {
  readonly #keys: { id: Buffer; key: Buffer }[];

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('at least one key is needed');
    for (const k of keys) if (k.length !== 32) throw new Error('keys must be 32 bytes');
    this.#keys = keys.map((key) => ({ id: keyIdOf(key), key }));
  }

  seal(purpose: string, payload: unknown): string {
    const first = this.#keys[0];
    if (!first) throw new Error('no key');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', first.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([
      Buffer.from([VERSION]),
      first.id,
      iv,
      cipher.getAuthTag(),
      body,
    ]).toString('base64url');
  }

  /** The payload, or undefined for anything forged, tampered with, or sealed with a retired key. */
  open(purpose: string, sealed: string): unknown {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= HEADER || raw[0] !== VERSION) return undefined;
    const id = raw.subarray(1, 1 + KEY_ID_BYTES);
    const entry = this.#keys.find((k) => k.id.equals(id));
    if (!entry) return undefined;
    const ivEnd = 1 + KEY_ID_BYTES + IV_BYTES;
    const iv = raw.subarray(1 + KEY_ID_BYTES, ivEnd);
    const tag = raw.subarray(ivEnd, HEADER);
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, iv);
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(tag);
      const text = Buffer.concat([decipher.update(raw.subarray(HEADER)), decipher.final()]);
      return JSON.parse(text.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }
}
