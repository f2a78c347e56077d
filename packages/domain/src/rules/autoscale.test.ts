import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_AUTOSCALER_CAPACITY_CPU,
  ANNOTATION_AUTOSCALER_CAPACITY_MEMORY,
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
} from '../labels';
import { aValidationContext } from '../testing';
import {
  autoscalerAnnotationsOf,
  autoscalerBoundsOf,
  canScaleFromZero,
  checkScaleOfAutoscaledPool,
  parseAutoscalerSize,
  validateAutoscale,
  type AutoscalePool,
} from './autoscale';

const annotated = (annotations: Record<string, string> | undefined) => ({
  metadata: { annotations },
});
const bounds = (min?: string, max?: string) =>
  annotated({
    ...(min !== undefined ? { [ANNOTATION_AUTOSCALER_MIN_SIZE]: min } : {}),
    ...(max !== undefined ? { [ANNOTATION_AUTOSCALER_MAX_SIZE]: max } : {}),
  });
const rules = (issues: readonly { rule: string; severity: string; path: string }[]) =>
  issues.map((i) => `${i.rule} ${i.severity} ${i.path}`);

const ctx = aValidationContext();
const pool: AutoscalePool = {
  name: 'demo-md-0',
  replicas: 3,
  ipPoolName: 'demo-worker-pool',
  scaleFromZero: false,
};

describe('R-AS-1: a bound is read as upstream’s strconv.Atoi reads it, and is not negative', () => {
  it.each([
    ['0', 0],
    ['3', 3],
    ['+3', 3],
    ['007', 7],
    ['-0', 0],
    ['2147483647', 2147483647],
  ])('%s is %d', (text, n) => {
    expect(parseAutoscalerSize(text)).toBe(n);
  });

  it.each(['-1', '1.5', '1e3', ' 3', '3 ', '0x10', '', 'three', '９', '99999999999999999999'])(
    '%j is not a bound',
    (text) => {
      expect(parseAutoscalerSize(text)).toBeUndefined();
    },
  );
});

describe('what the autoscaler makes of a MachineDeployment’s bound annotations', () => {
  it('both, readable, min ≤ max, max ≥ 1: bounds', () => {
    expect(autoscalerAnnotationsOf(bounds('1', '5'))).toEqual({
      state: 'bounds',
      bounds: { minSize: 1, maxSize: 5 },
      min: '1',
      max: '5',
    });
    expect(autoscalerBoundsOf(bounds('0', '0'))).toBeUndefined();
    expect(autoscalerBoundsOf(bounds('2', '2'))).toEqual({ minSize: 2, maxSize: 2 });
  });

  it('R-AS-2: only one of them: ignored as incomplete; neither: none', () => {
    expect(autoscalerAnnotationsOf(bounds('1'))).toEqual({
      state: 'ignored',
      reason: 'incomplete',
      min: '1',
    });
    expect(autoscalerAnnotationsOf(bounds(undefined, '4'))).toMatchObject({ reason: 'incomplete' });
    expect(autoscalerAnnotationsOf(annotated(undefined))).toEqual({ state: 'none' });
    expect(autoscalerAnnotationsOf(annotated({ other: '1' }))).toEqual({ state: 'none' });
  });

  it('R-AS-1 and R-AS-3: unreadable, min above max, max 0: ignored, and why', () => {
    expect(autoscalerAnnotationsOf(bounds('-1', '3'))).toMatchObject({ reason: 'invalid' });
    expect(autoscalerAnnotationsOf(bounds('1', 'lots'))).toMatchObject({ reason: 'invalid' });
    expect(autoscalerAnnotationsOf(bounds('4', '2'))).toMatchObject({ reason: 'minAboveMax' });
    expect(autoscalerAnnotationsOf(bounds('0', '0'))).toMatchObject({ reason: 'maxZero' });
  });

  it('keys like __proto__ in the annotations are inert: only the two own keys count', () => {
    const proto = JSON.parse(
      `{"__proto__": {"${ANNOTATION_AUTOSCALER_MIN_SIZE}": "1", "${ANNOTATION_AUTOSCALER_MAX_SIZE}": "3"}, "constructor": "x"}`,
    ) as Record<string, string>;
    expect(autoscalerAnnotationsOf(annotated(proto))).toEqual({ state: 'none' });
    expect(canScaleFromZero(annotated(proto))).toBe(false);
    expect(({} as Record<string, unknown>)[ANNOTATION_AUTOSCALER_MIN_SIZE]).toBeUndefined();
  });

  it('R-AS-6: scale from zero needs both capacity annotations, not empty', () => {
    expect(canScaleFromZero(annotated({ [ANNOTATION_AUTOSCALER_CAPACITY_CPU]: '4' }))).toBe(false);
    expect(
      canScaleFromZero(
        annotated({
          [ANNOTATION_AUTOSCALER_CAPACITY_CPU]: '4',
          [ANNOTATION_AUTOSCALER_CAPACITY_MEMORY]: '',
        }),
      ),
    ).toBe(false);
    expect(
      canScaleFromZero(
        annotated({
          [ANNOTATION_AUTOSCALER_CAPACITY_CPU]: '4',
          [ANNOTATION_AUTOSCALER_CAPACITY_MEMORY]: '8192Mi',
        }),
      ),
    ).toBe(true);
  });
});

describe('validateAutoscale (O-AUTOSCALE)', () => {
  it('bounds around the replicas, within the IP pool: nothing to say', () => {
    expect(validateAutoscale({ minSize: 1, maxSize: 3 }, pool, ctx)).toEqual([]);
  });

  it('R-AS-3: min above max is an error at maxSize; max 0 is an error', () => {
    expect(rules(validateAutoscale({ minSize: 4, maxSize: 2 }, pool, ctx))).toEqual([
      'R-AS-3 error maxSize',
    ]);
    expect(rules(validateAutoscale({ minSize: 0, maxSize: 0 }, pool, ctx))).toEqual([
      'R-AS-3 error maxSize',
    ]);
  });

  it('R-AS-4: replicas outside the new bounds is an error naming the bound, unless the change moves them in', () => {
    const below = validateAutoscale({ minSize: 4, maxSize: 4 }, pool, ctx);
    expect(rules(below)).toContain('R-AS-4 error minSize');
    expect(below.find((i) => i.rule === 'R-AS-4')?.message).toBe(
      'replicas 3 of demo-md-0 is below minSize 4: the cluster autoscaler does not scale a pool that is outside its bounds, so it would leave this pool alone. Raise replicas to 4 in the same change, or lower minSize.',
    );
    expect(rules(validateAutoscale({ minSize: 1, maxSize: 2 }, pool, ctx))).toEqual([
      'R-AS-4 error maxSize',
    ]);
    expect(validateAutoscale({ minSize: 1, maxSize: 2, replicas: 2 }, pool, ctx)).toEqual([]);
    expect(rules(validateAutoscale({ minSize: 1, maxSize: 2, replicas: 5 }, pool, ctx))).toEqual([
      'R-AS-4 error replicas',
      'R-MD-1 error replicas',
    ]);
  });

  it('R-MD-1: replicas raised into the bounds past what the IP pool serves are refused, as a scale-up would be', () => {
    const small = { ...pool, replicas: 1 };
    expect(rules(validateAutoscale({ minSize: 4, maxSize: 4, replicas: 4 }, small, ctx))).toEqual([
      'R-MD-1 error replicas',
      'R-AS-5 warning maxSize',
    ]);
    expect(validateAutoscale({ minSize: 2, maxSize: 3, replicas: 2 }, small, ctx)).toEqual([]);
  });

  it('R-AS-5: a max the IP pool cannot serve is a warning that names the room', () => {
    // demo-worker-pool: 3 entries, demo-md-0 its only consumer.
    const issues = validateAutoscale({ minSize: 1, maxSize: 10 }, pool, ctx);
    expect(rules(issues)).toEqual(['R-AS-5 warning maxSize']);
    expect(issues[0]?.params).toMatchObject({ max: 10, room: 3, ipPool: 'demo-worker-pool' });
  });

  it('R-AS-6: min 0 without the capacity annotations warns that the pool cannot come back from 0', () => {
    expect(rules(validateAutoscale({ minSize: 0, maxSize: 3 }, pool, ctx))).toEqual([
      'R-AS-6 warning minSize',
    ]);
    expect(
      validateAutoscale({ minSize: 0, maxSize: 3 }, { ...pool, scaleFromZero: true }, ctx),
    ).toEqual([]);
  });

  it('R-VER-1: a provider below 1.0.13 refuses it like every form', () => {
    const old = aValidationContext({ providerVersion: '1.0.12' });
    expect(rules(validateAutoscale({ minSize: 1, maxSize: 3 }, pool, old))).toContain(
      'R-VER-1 error ',
    );
  });
});

describe('R-AS-7: a manual scale of an autoscaled pool', () => {
  const b = { minSize: 2, maxSize: 5 };
  it('outside the bounds: refused, below and above, naming the bound', () => {
    expect(rules(checkScaleOfAutoscaledPool('p', 3, 1, b, 'replicas'))).toEqual([
      'R-AS-7 error replicas',
    ]);
    const above = checkScaleOfAutoscaledPool('p', 3, 6, b, 'replicas');
    expect(above[0]?.messageKey).toBe('autoscale.scaleAboveMax');
    expect(above[0]?.message).toContain('above the autoscaler’s maxSize 5');
  });

  it('inside: a warning that the autoscaler may change it again; unchanged or not autoscaled: nothing', () => {
    const within = checkScaleOfAutoscaledPool('p', 3, 4, b, 'replicas');
    expect(rules(within)).toEqual(['R-AS-7 warning replicas']);
    expect(within[0]?.message).toBe(
      'p is managed by the cluster autoscaler between 2 and 5: it may change replicas 4 again, as soon as pods cannot be scheduled or nodes are unneeded.',
    );
    expect(checkScaleOfAutoscaledPool('p', 3, 3, b, 'replicas')).toEqual([]);
    expect(checkScaleOfAutoscaledPool('p', 3, 9, undefined, 'replicas')).toEqual([]);
  });

  it('R-AS-6: down to 0 within [0, max] without a machine size: it will not come back', () => {
    expect(
      rules(checkScaleOfAutoscaledPool('p', 1, 0, { minSize: 0, maxSize: 3 }, 'replicas')),
    ).toEqual(['R-AS-7 warning replicas', 'R-AS-6 warning replicas']);
    expect(
      rules(
        checkScaleOfAutoscaledPool(
          'p',
          1,
          0,
          { minSize: 0, maxSize: 3, scaleFromZero: true },
          'replicas',
        ),
      ),
    ).toEqual(['R-AS-7 warning replicas']);
  });
});
