import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from './seal';

describe('Sealer', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  it('round-trips a payload', () => {
    const s = new Sealer([k1]);
    expect(s.open('session', s.seal('session', { a: 1, t: 'x' }))).toEqual({ a: 1, t: 'x' });
  });

  it('binds the purpose: a sealed value of one cookie does not open as another', () => {
    const s = new Sealer([k1]);
    expect(s.open('csrf', s.seal('session', { a: 1 }))).toBeUndefined();
  });

  it('rejects tampering, garbage and unknown keys', () => {
    const s = new Sealer([k1]);
    const sealed = Buffer.from(s.seal('session', { a: 1 }), 'base64url');
    const last = sealed.length - 1;
    sealed[last] = (sealed[last] ?? 0) ^ 1;
    expect(s.open('session', sealed.toString('base64url'))).toBeUndefined();
    expect(s.open('session', 'not-a-cookie')).toBeUndefined();
    expect(new Sealer([k2]).open('session', s.seal('session', 1))).toBeUndefined();
  });

  it('rotates: the new first key seals, the old one still opens', () => {
    const old = new Sealer([k1]);
    const rotated = new Sealer([k2, k1]);
    expect(rotated.open('session', old.seal('session', 'v'))).toBe('v');
    expect(old.open('session', rotated.seal('session', 'v'))).toBeUndefined();
  });
});
