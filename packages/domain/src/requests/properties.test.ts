import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intOrPercentProblem } from '../intstr';
import { planCreatePool } from '../planners/create-pool';
import { parseGoDuration } from '../rules/duration';
import { isDns1123Subdomain } from '../rules/net';
import { aCreatePoolRequest, anIpEntry, aValidationContext } from '../testing';
import { CreatePoolRequestSchema } from '.';

/**
 * Property: every object the create planner writes from an accepted request carries durations
 * Go can parse, int-or-percent values R-MD-2 accepts, DNS-1123 names, no empty extra-NIC
 * values, and nothing of another pool. Fixed seed, printed, so a failure reproduces.
 */
const SEED = 20261201;
const RUNS = 2000;

const duration = fc.oneof(
  fc.constantFrom('0', '1m', '90s', '1h30m', '-1m', 'soon', '', '1', '1.5h', '10 s'),
  fc.string({ maxLength: 6 }),
);
const intOrString = fc.oneof(
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom('25%', '0%', '-1', '1', 'x%', '100%'),
  fc.double({ min: -2, max: 3, noNaN: true }),
);
const nic = fc.record({
  ip: fc.constantFrom('192.168.0.20', '', ' 192.168.0.21'),
  dvSwitchName: fc.constantFrom('dvs-2', '', '..'),
  portGroupName: fc.constantFrom('pg-2', ''),
});

describe(`create-pool requests, property-based (fast-check seed ${SEED}, ${RUNS} runs)`, () => {
  it('every accepted request plans objects Cluster API can use', () => {
    console.log(`fast-check seed ${SEED}, ${RUNS} runs`);
    const ctx = aValidationContext();
    fc.assert(
      fc.property(
        duration,
        duration,
        intOrString,
        intOrString,
        fc.integer({ min: -2, max: 4 }),
        fc.option(fc.array(nic, { maxLength: 2 }), { nil: undefined }),
        (drain, deletion, maxSurge, maxUnavailable, replicas, nics) => {
          const entries = [4, 5, 6].map((n) =>
            nics ? { ...anIpEntry(n), additionNic: nics } : anIpEntry(n),
          );
          const parsed = CreatePoolRequestSchema.safeParse(
            aCreatePoolRequest({
              replicas,
              nodeDrainTimeout: drain,
              nodeDeletionTimeout: deletion,
              strategy: { maxSurge, maxUnavailable },
              ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries },
            }),
          );
          if (!parsed.success) return;
          const plan = planCreatePool(parsed.data, {}, ctx);
          for (const step of plan.steps) {
            if (step.verb !== 'create') continue;
            expect(isDns1123Subdomain(step.name)).toBe(true);
            const spec = step.body.spec as Record<string, unknown>;
            if (step.kind === 'MachineDeployment') {
              const md = parsed.data;
              const t = (spec.template as { spec: Record<string, unknown> }).spec;
              for (const f of ['nodeDrainTimeout', 'nodeDeletionTimeout'] as const) {
                const v = t[f];
                expect(
                  typeof v === 'string' && (parseGoDuration(v) ?? -1) >= 0,
                  `${f} ${String(v)}`,
                ).toBe(true);
              }
              expect(intOrPercentProblem(md.strategy.maxSurge)).toBeUndefined();
              expect(intOrPercentProblem(md.strategy.maxUnavailable)).toBeUndefined();
              expect(md.replicas).toBeGreaterThanOrEqual(0);
            }
            if (step.kind === 'DCSIpHostnamePool') {
              const pool = (spec.pool ?? []) as {
                ip: string;
                additionNic?: Record<string, string>[];
              }[];
              for (const e of pool) {
                expect(e.ip).toBe(e.ip.trim());
                // Extra NICs only as the request gave them, trimmed, an empty optional address
                // left out (issue 11); the rules flag an empty switch or port group.
                expect(e.additionNic).toEqual(
                  nics?.map(({ ip, ...n }) => (ip.trim() ? { ...n, ip: ip.trim() } : n)),
                );
                const blankNic = e.additionNic?.some(
                  (n) => n.dvSwitchName === '' || n.portGroupName === '',
                );
                if (blankNic) expect(plan.issues.some((i) => i.severity === 'error')).toBe(true);
              }
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
