import { describe, expect, it } from 'vitest';
import { ANNOTATION_FAIL, failureModes, modesFromAnnotation, parseFailureRule } from './failures';

describe('failure injection', () => {
  it('parses CLI rules', () => {
    expect(parseFailureRule('placement-stall')).toEqual({ mode: 'placement-stall' });
    expect(parseFailureRule('vm-create-error:pool=p1:p=0.5')).toEqual({
      mode: 'vm-create-error',
      pool: 'p1',
      probability: 0.5,
    });
    expect(() => parseFailureRule('explode')).toThrow(/unknown failure mode/);
    expect(() => parseFailureRule('iso-upload:p=2')).toThrow(/p must be/);
  });

  it('annotations name modes, optionally for one pool entry (MODE@IP)', () => {
    expect(modesFromAnnotation('placement-stall@10.0.1.12, node-unhealthy', '10.0.1.12')).toEqual([
      'placement-stall',
      'node-unhealthy',
    ]);
    expect(modesFromAnnotation('placement-stall@10.0.1.12', '10.0.1.13')).toEqual([]);
  });

  it('combines machine, DCSMachine and pool annotations with CLI rules', () => {
    const modes = failureModes(
      {
        machine: 'm1',
        machineAnnotations: { [ANNOTATION_FAIL]: 'node-unhealthy' },
        pool: 'p1',
        poolAnnotations: { [ANNOTATION_FAIL]: 'iso-upload@10.0.0.1' },
        ip: '10.0.0.1',
      },
      [
        { mode: 'drain-stuck', pool: 'p1' },
        { mode: 'vm-create-error', pool: 'other' },
      ],
      1,
    );
    expect([...modes].sort()).toEqual(['drain-stuck', 'iso-upload', 'node-unhealthy']);
  });

  it('a probability picks a reproducible share of machines', () => {
    const pick = (seed: number) =>
      Array.from(
        { length: 200 },
        (_, i) =>
          failureModes({ machine: `m${i}` }, [{ mode: 'placement-stall', probability: 0.25 }], seed)
            .size,
      ).join('');
    expect(pick(1)).toBe(pick(1));
    const share = pick(1).replace(/[^1]/g, '').length / 200;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.35);
  });
});
