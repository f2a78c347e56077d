import {
  CapiConversionError,
  guardOf,
  hasErrors,
  hubVersion,
  planForVersions,
  poolMergedIssue,
  poolMergeOf,
  type DCSIpHostnamePool,
  type KubeObject,
  type Plan,
  type PlanStep,
  type PlanVerdict,
  type PoolMerge,
  type RuleIssue,
  type ApiVersionChoice,
  type UpstreamStatus,
  type ValidationContext,
  withGuardAt,
  withPauseWarnings,
} from '@dcs/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Recorder } from '../audit/recorder';
import type { Check } from '../auth/authorizer';
import type { Principal } from '../auth/principal';
import { stripForHistory } from '../cache/history';
import type { ObjectCache } from '../cache/object-cache';
import { HttpError, issue, issuesOfApiError } from '../http/errors';
import { HEADERS_TOO_LARGE, KubeApiError } from '../kube/errors';
import { getObject } from '../kube/objects';
import { speaking, type KubeClient } from '../kube/rest';
import type { Metrics } from '../metrics/metrics';
import {
  previewPlan,
  executePlan,
  type ExecutionResult,
  type ExecutorOptions,
} from '../plan/executor';
import { yieldToLoop } from '../requests/served-fields';
import type { Globals } from '../views/globals';
import {
  changedPathsAlong,
  overlapping,
  poolChangesAlong,
  poolEntriesTouched,
  poolEntryClash,
  staleRefs,
  stepsOn,
  withResourceVersion,
  writtenPaths,
  yoursOf,
  type StaleRef,
} from './conflict';
import { readableSecrets, secretNamesOf, validationContext } from './validation-context';

/**
 * Every mutating route goes through here: the request becomes a Plan (domain's planner, on the
 * same ValidationContext the browser gets), the plan is authorized for the user, previewed
 * (`?dryRun=true`) or executed with the user's own credential, and one audit line is written.
 * A request whose resourceVersions are stale is judged three-way (conflict.ts): rebased and
 * applied when the user's intent still applies cleanly, else answered 409 with base, theirs and
 * yours. A 409 during execution (someone was faster than our cache) re-reads and re-plans once.
 */

export interface MutationSpec<Req> {
  /** For the audit log and metrics, e.g. `nodepool.scale`. */
  action: string;
  namespace: string;
  /** The cluster the request is about ('' for namespace-level IP-pool routes). */
  cluster: string;
  request: Req;
  plan: (request: Req, ctx: ValidationContext) => Plan;
  /** After a successful execution: check what the cluster did (O-SCALE-DOWN-TARGETED). */
  verify?: (plan: Plan, principal: Principal) => Promise<unknown>;
}

export interface Rebase {
  kind: string;
  name: string;
  from: string;
  to: string;
  /** R-POOL-4: for an IP pool, what someone else's change held, which the edit was merged with. */
  merged?: PoolMerge;
}

export type MutationOutcome =
  | { dryRun: true; plan: Plan; rebased: Rebase[] }
  | {
      dryRun: false;
      plan: Plan;
      execution: ExecutionResult;
      rebased: Rebase[];
      verification?: unknown;
    };

export interface MutationDeps {
  cache: ObjectCache;
  globals: () => Globals;
  authorize: (principal: Principal, checks: readonly Check[]) => Promise<void>;
  log: FastifyBaseLogger;
  metrics: Metrics;
  executor?: ExecutorOptions;
  /** How long to wait for the cache to catch up with a version read from the server. */
  catchUpMs?: number;
  /** The version each Cluster API group is spoken in now (issue 23); default: the hub's. */
  apiVersions?: () => ApiVersionChoice;
  /** The management cluster's reachability (issue 10 item 4); default: always reachable. */
  upstream?: () => UpstreamStatus;
  /**
   * Resolves once the caches have listed, or throws a 503 (issue 14's cold start): a plan from a
   * half-filled cache would judge rules on missing objects. Default: always listed.
   */
  synced?: () => Promise<void>;
  /** Issue 12: writes each audit line to the management cluster too (audit/recorder.ts). */
  recorder?: Recorder;
  /**
   * How long a request waits for its audit record to be written before answering (the record is
   * then usually on the timeline when the user looks); past it the write goes on in the
   * background. Default 3 s.
   */
  recordWaitMs?: number;
}

/** The spec's plan, with R-PAUSE-1's warning when it writes what a pause keeps still. */
const planOf = <Req>(spec: MutationSpec<Req>, request: Req, ctx: ValidationContext): Plan =>
  withPauseWarnings(spec.plan(request, ctx), ctx);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * How often a plan whose write met a newer version (409, or a JSON patch's failed `test`) is
 * re-planned on the current object before the user is told that the object keeps changing.
 */
const EXECUTION_ATTEMPTS = 4;

/**
 * A request planned on a version that is no longer current, which breaks a rule on the current
 * one: someone else's change (an entry removed, a rollout started) may be what makes it break,
 * so it is not the user's fault to fix (422) but a conflict to look at again (409), with the
 * rule it now breaks. A request on the current version that breaks a rule stays a 422.
 */
function staleRefusal(plan: Plan, rebased: readonly Rebase[], first: RuleIssue | undefined) {
  const changed = rebased
    .map((r) => `${r.kind} ${r.name} (resourceVersion ${r.from} → ${r.to})`)
    .join(', ');
  const message = `${changed} was changed by someone else since you loaded it, and on the current version your change no longer applies: ${first?.message ?? 'it breaks a rule'}`;
  const r = rebased[0];
  return new HttpError(
    409,
    'Conflict',
    message,
    [
      issue('R-PLAN-STALE', 'resourceVersion', 'bff.conflict.rule', message, {
        kind: r?.kind ?? '',
        name: r?.name ?? '',
        seen: r?.from ?? '',
        current: r?.to ?? '',
      }),
      ...plan.issues,
    ],
    {
      conflict: {
        kind: r?.kind ?? '',
        name: r?.name ?? '',
        seen: r?.from ?? '',
        current: r?.to ?? '',
        breaks: plan.issues.filter((i) => i.severity === 'error'),
      },
      plan,
    },
  );
}

export class MutationService {
  readonly #d: MutationDeps;

  constructor(deps: MutationDeps) {
    this.#d = deps;
  }

  /** The ValidationContext for a user: cached facts plus the Secrets this user may read. */
  async context(
    principal: Principal,
    namespace: string,
    cluster: string,
  ): Promise<ValidationContext> {
    const globals = this.#d.globals();
    const secrets = await readableSecrets(
      principal,
      namespace,
      secretNamesOf(this.#d.cache, globals, namespace),
    );
    return validationContext(this.#d.cache, globals, namespace, cluster, secrets);
  }

  async run<Req>(
    principal: Principal,
    spec: MutationSpec<Req>,
    dryRun: boolean,
  ): Promise<MutationOutcome> {
    const recording: Promise<void>[] = [];
    const audit = (result: string, plan: Plan | undefined, extra: Record<string, unknown> = {}) => {
      this.#d.metrics.mutations.inc({ operation: plan?.operation ?? spec.action, result });
      if (this.#d.recorder) {
        recording.push(
          this.#d.recorder.record({
            user: principal.username,
            action: spec.action,
            namespace: spec.namespace,
            cluster: spec.cluster,
            dryRun,
            result,
            ...(plan ? { plan } : {}),
            ...(typeof extra.status === 'number' ? { status: extra.status } : {}),
            ...(typeof extra.rolledBack === 'boolean' ? { rolledBack: extra.rolledBack } : {}),
            ...(Array.isArray(extra.rebased) ? { rebased: extra.rebased as Rebase[] } : {}),
            ...(typeof extra.message === 'string' ? { message: extra.message } : {}),
          }),
        );
      }
      this.#d.log.info(
        {
          audit: {
            user: principal.username,
            action: spec.action,
            operation: plan?.operation,
            namespace: spec.namespace,
            cluster: spec.cluster || undefined,
            objects: plan?.steps.map((s) => `${s.verb} ${s.kind}/${s.name}`) ?? [],
            dryRun,
            result,
            ...extra,
          },
        },
        'audit',
      );
    };
    try {
      return await this.#audited(principal, spec, dryRun, audit);
    } finally {
      // The record is written before the answer, within a bound: a slow or failing recorder
      // delays no operation for long and fails none (it logs and counts its own failures).
      if (recording.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(recording),
          new Promise<void>((r) => {
            timer = setTimeout(r, this.#d.recordWaitMs ?? 3000);
          }),
        ]);
        clearTimeout(timer);
      }
    }
  }

  async #audited<Req>(
    principal: Principal,
    spec: MutationSpec<Req>,
    dryRun: boolean,
    audit: (result: string, plan: Plan | undefined, extra?: Record<string, unknown>) => void,
  ): Promise<MutationOutcome> {
    try {
      await this.#d.synced?.();
    } catch (error) {
      audit('unavailable', undefined, { status: 503 });
      throw error;
    }
    const upstream = this.#d.upstream?.() ?? { state: 'connected' };
    if (upstream.state === 'disconnected') {
      // The plan would be built from a cache that stopped following the cluster, and its writes
      // would fail part-way: refuse before any step, so nothing is half-applied.
      audit('unavailable', undefined, { status: 503 });
      const message = `the management cluster has been unreachable since ${upstream.since}; no change was made (${upstream.reason})`;
      throw new HttpError(503, 'UpstreamUnavailable', message, [
        issue('R-API', '', 'bff.api.unavailable', message, { since: upstream.since }),
      ]);
    }
    try {
      return await this.#run(principal, spec, dryRun, audit);
    } catch (error) {
      if (error instanceof HttpError && !(error.extra as { audited?: boolean }).audited) {
        audit(error.code, error.extra.plan as Plan | undefined, {
          status: error.statusCode,
          message: error.message,
        });
      }
      throw error;
    }
  }

  async #run<Req>(
    principal: Principal,
    spec: MutationSpec<Req>,
    dryRun: boolean,
    audit: (result: string, plan: Plan | undefined, extra?: Record<string, unknown>) => void,
  ): Promise<MutationOutcome> {
    const ctx = await this.context(principal, spec.namespace, spec.cluster);
    // One choice of versions for the whole request: the plan is sent in the versions it was made for.
    const client = this.#clientOf(principal);
    const rebased: Rebase[] = [];
    let request = spec.request;
    let plan = await this.#settle(principal, spec, ctx, request, rebased);
    request = plan.request;

    for (let attempt = 0; ; attempt++) {
      const p = this.#noticeMerges(plan.plan, spec.namespace, rebased, request);
      if (hasErrors(p.issues)) {
        const first = p.issues.find((i) => i.severity === 'error');
        if (rebased.length > 0) throw staleRefusal(p, rebased, first);
        throw new HttpError(
          422,
          'Invalid',
          first?.message ?? 'the request breaks a rule',
          p.issues,
          { plan: p },
        );
      }
      await this.#authorizePlan(principal, p);
      // What is previewed, sent, recorded and answered: the plan in the versions the cluster serves.
      const wire = this.#onTheWire(p, client);
      if (dryRun) {
        // Preview asks the server: every step dry-run, as Apply's first phase does.
        const { verdict, conflictAt } = await this.#dryRun(wire, client, principal);
        // A step refused because its object changed since the plan (someone wrote it between
        // our plan and the dry run, beyond the status noise the executor passes over): judged
        // again as Apply's conflict is — caught up, re-planned, and either rebased or answered
        // with the 409 that says what they changed, instead of the server's generic words.
        if (conflictAt !== undefined && attempt + 1 < EXECUTION_ATTEMPTS) {
          const failed = p.steps[conflictAt];
          if (failed) await this.#catchUp(principal, failed.kind, failed.namespace, failed.name);
          plan = await this.#settle(principal, spec, ctx, request, rebased);
          request = plan.request;
          continue;
        }
        audit(verdict.ok ? 'dry-run' : 'dry-run-refused', wire);
        return { dryRun: true, plan: { ...wire, verdict }, rebased };
      }
      const execution = await executePlan(wire, client, this.#executorFor(principal));
      if (execution.ok) {
        audit('applied', wire, {
          ...(rebased.length ? { rebased } : {}),
          ...(execution.guardsMoved.length ? { guardsMoved: execution.guardsMoved } : {}),
        });
        const verification = spec.verify ? await spec.verify(wire, principal) : undefined;
        return {
          dryRun: false,
          plan: wire,
          execution,
          rebased,
          ...(verification !== undefined ? { verification } : {}),
        };
      }
      if (execution.conflict && attempt + 1 < EXECUTION_ATTEMPTS) {
        // Our cache was behind the server, or someone wrote between our plan and our write:
        // catch up on the object that failed, then re-plan and judge again (#settle answers 409
        // when the other change touched what this one writes). Busy objects (several editors of
        // one IP pool) need more than one round; a short random pause spreads the contenders.
        const failed =
          execution.failedStep !== undefined ? p.steps[execution.failedStep] : undefined;
        if (failed) await this.#catchUp(principal, failed.kind, failed.namespace, failed.name);
        await sleep(Math.floor(Math.random() * 20 * (attempt + 1)));
        plan = await this.#settle(principal, spec, ctx, request, rebased);
        request = plan.request;
        continue;
      }
      throw this.#executionError(wire, execution, audit, attempt + 1);
    }
  }

  /**
   * R-POOL-4: an IP-pool edit re-applied over someone else's change (the planner's
   * `plan.issue.poolChanged`) says what that change was: the warning becomes one that lists the
   * entries they added, removed and changed (from the version the user saw, kept in the cache's
   * history), and the merge is recorded among the rebases of the answer.
   */
  #noticeMerges(plan: Plan, namespace: string, rebased: Rebase[], request: unknown): Plan {
    const issues = plan.issues.map((i) => {
      if (i.messageKey !== 'plan.issue.poolChanged') return i;
      const name = String(i.params.name);
      const seen = String(i.params.seen);
      // Every version since the one the user saw: a change undone meanwhile still was a change.
      const chain = this.#d.cache.history.since(`DCSIpHostnamePool/${namespace}/${name}`, seen) as
        DCSIpHostnamePool[] | undefined;
      const base = chain?.[0];
      const current = this.#d.cache.stores.DCSIpHostnamePool.get(namespace, name);
      const to = current?.metadata.resourceVersion;
      if (!current || to === undefined) return i;
      const touched = poolEntriesTouched(request);
      // Entries are merged one by one: an edit of an entry someone else changed or removed
      // meanwhile is no merge but an overwrite the user never saw (R-POOL-4). When the version
      // the user saw is no longer known, that cannot be ruled out for the entries the request
      // edits or removes (appends alone overwrite nothing).
      const clash = chain
        ? poolEntryClash(touched, poolChangesAlong([...chain, current]))
        : [...new Set(touched)];
      if (clash.length > 0) {
        const message = chain
          ? `IP pool ${name} was changed by someone else since you loaded it (resourceVersion ${seen} → ${to}); they changed or removed the entries you edit: ${clash.join(', ')}`
          : `IP pool ${name} was changed by someone else since you loaded it (resourceVersion ${seen} → ${to}), in ways no longer known here; reload it and edit the entries again: ${clash.join(', ')}`;
        throw new HttpError(
          409,
          'Conflict',
          message,
          [
            issue('R-PLAN-STALE', 'resourceVersion', 'bff.conflict.entries', message, {
              kind: 'DCSIpHostnamePool',
              name,
              seen,
              current: to,
              entries: clash.join(', '),
            }),
          ],
          {
            conflict: {
              kind: 'DCSIpHostnamePool',
              name,
              base: base ?? null,
              theirs: stripForHistory(current),
              yours: yoursOf(plan, 'DCSIpHostnamePool', name) ?? null,
              fields: clash.map((ip) => `/spec/pool[ip=${ip}]`),
            },
            plan,
          },
        );
      }
      if (!base) return i;
      const merged = poolMergeOf(base, current);
      if (!rebased.some((r) => r.kind === 'DCSIpHostnamePool' && r.name === name && r.to === to))
        rebased.push({ kind: 'DCSIpHostnamePool', name, from: seen, to, merged });
      return poolMergedIssue(name, seen, to, merged, i.path);
    });
    return issues.some((x, k) => x !== plan.issues[k]) ? { ...plan, issues } : plan;
  }

  /** The user's client, speaking the versions the management cluster serves now (issue 23). */
  /**
   * The plan as it is sent (issue 23): in the versions `client` speaks, each patch re-expressed
   * against the cached object it was planned on; the plan itself where those are the hub's. A value
   * the served version cannot hold (upstream's conversion refuses it) is the request's fault.
   */
  #onTheWire(p: Plan, client: KubeClient): Plan {
    const versions = client.apiVersions ?? {};
    const stores = this.#d.cache.stores as Record<
      string,
      { get(ns?: string, n?: string): KubeObject | undefined }
    >;
    const objects = p.steps.flatMap((s) => {
      const o = Object.hasOwn(stores, s.kind)
        ? stores[s.kind]?.get(s.namespace, s.name)
        : undefined;
      return o ? [o] : [];
    });
    try {
      return planForVersions(
        p,
        (group) =>
          (Object.hasOwn(versions, group) ? versions[group] : undefined) ?? hubVersion(group) ?? '',
        objects,
      );
    } catch (error) {
      if (!(error instanceof CapiConversionError)) throw error;
      throw new HttpError(422, 'Invalid', error.message, [
        issue('R-API', error.field, 'bff.api.conversion', error.message, { field: error.field }),
        ...p.issues,
      ]);
    }
  }

  #clientOf(principal: Principal): KubeClient {
    return speaking(principal.client, this.#d.apiVersions?.() ?? {});
  }

  /** The executor's options for this principal's writes. */
  #executorFor(principal: Principal): ExecutorOptions {
    return {
      ...(this.#d.executor ?? {}),
      refreshGuard: (step) => this.#refreshGuard(principal, step),
    };
  }

  /**
   * A step refused on its resourceVersion guard whose object has moved on only by writes that are
   * no one's edit (status, and what else `changedPaths` counts as noise: a controller's writes),
   * from the version it was planned on up to the server's current one: the step guarded by the
   * current version. Every version between the two is looked at, not only the ends (a field
   * written and written back is someone's decision all the same), so the cache is first let catch
   * up with the server's current version, as #catchUp does. Any other change, or a version the
   * cache no longer remembers or does not reach in time, is left to the three-way judgement of
   * #settle.
   */
  async #refreshGuard(principal: Principal, step: PlanStep): Promise<PlanStep | undefined> {
    const planned = guardOf(step);
    if (planned === undefined) return undefined;
    let current: string | undefined;
    try {
      const live = await getObject(this.#clientOf(principal), step.kind, step.namespace, step.name);
      current = live.metadata.resourceVersion;
    } catch {
      return undefined;
    }
    if (current === undefined || current === planned) return undefined;
    const key = `${step.kind}/${step.namespace}/${step.name}`;
    const history = this.#d.cache.history;
    // The watch delivers every version: once it has delivered the current one, the versions
    // between are all known (the cache may have moved past it meanwhile; that is fine).
    const deadline = Date.now() + (this.#d.catchUpMs ?? 3000);
    while (!history.has(key, current)) {
      if (Date.now() >= deadline || !history.has(key, planned)) return undefined;
      await sleep(5);
    }
    const chain = history.since(key, planned);
    return chain && changedPathsAlong(chain).length === 0 ? withGuardAt(step, current) : undefined;
  }

  async #dryRun(
    p: Plan,
    client: KubeClient,
    principal: Principal,
  ): Promise<{ verdict: PlanVerdict; conflictAt?: number }> {
    try {
      return await previewPlan(p, client, this.#executorFor(principal));
    } catch (error) {
      // Not the server's verdict but no answer at all (network, TLS): the upstream failed.
      const message = `the API server could not be asked to dry-run the plan: ${error instanceof Error ? error.message : String(error)}`;
      throw new HttpError(502, 'UpstreamError', message, [
        issue('R-API', '', 'bff.api.unreachable', message),
      ]);
    }
  }

  /** Plans, rebasing a stale request when that is clean (or throwing 409 when it is not). */
  async #settle<Req>(
    principal: Principal,
    spec: MutationSpec<Req>,
    ctx: ValidationContext,
    original: Req,
    rebased: Rebase[],
  ): Promise<{ plan: Plan; request: Req }> {
    let request = original;
    // The planner is the request's longest stretch of work: it starts on a turn of its own.
    await yieldToLoop();
    let plan = planOf(spec, request, ctx);
    // Permission first: a user who may not make this change learns nothing more (403, not 409/422).
    await this.#authorizePlan(principal, plan);
    for (let round = 0; round < 3; round++) {
      const stale = staleRefs(plan.issues);
      if (stale.length === 0) return { plan, request };
      // The user may have seen a newer version than our cache holds (another replica): wait for it.
      const waited = await Promise.all(
        stale.map((r) => this.#awaitSeen(principal, spec.namespace, r)),
      );
      if (waited.some(Boolean)) {
        plan = planOf(spec, request, ctx);
        continue;
      }
      let next = request;
      for (const r of stale) next = withResourceVersion(next, r.path, r.current) as Req;
      const candidate = planOf(spec, next, ctx);
      this.#judge(spec.namespace, stale, plan, candidate);
      for (const r of stale)
        rebased.push({ kind: r.kind, name: r.name, from: r.seen, to: r.current });
      request = next;
      plan = candidate;
    }
    return { plan, request };
  }

  /** 409 unless every stale object's change and the plan's writes are disjoint. */
  #judge(namespace: string, stale: readonly StaleRef[], original: Plan, candidate: Plan): void {
    const cache = this.#d.cache;
    for (const r of stale) {
      const key = `${r.kind}/${namespace}/${r.name}`;
      // Every version since the one the user saw, not just the two ends: a field written and
      // written back meanwhile (replicas 3 → 5 → 3) was someone's decision all the same.
      const chain = cache.history.since(key, r.seen);
      const base = chain?.[0];
      const theirsObj = (cache.stores as Record<string, { get(ns: string, n: string): unknown }>)[
        r.kind
      ]?.get(namespace, r.name);
      const theirs = theirsObj ? stripForHistory(theirsObj as Record<string, unknown>) : undefined;
      const yoursPaths = stepsOn(candidate, r.kind, r.name).flatMap((s) => writtenPaths(s, base));
      const theirsPaths = chain && theirs ? changedPathsAlong([...chain, theirs]) : [];
      const clash =
        base && theirs
          ? overlapping(theirsPaths, yoursPaths)
          : ['(the version you saw is no longer known)'];
      if (clash.length === 0) continue;
      const message = `${r.kind} ${r.name} was changed by someone else since you loaded it (resourceVersion ${r.seen} → ${r.current}); your change touches the same fields`;
      throw new HttpError(
        409,
        'Conflict',
        message,
        [
          issue('R-PLAN-STALE', r.path, 'bff.conflict', message, {
            kind: r.kind,
            name: r.name,
            seen: r.seen,
            current: r.current,
          }),
          ...original.issues.filter((i) => i.rule !== 'R-PLAN-STALE'),
        ],
        {
          conflict: {
            kind: r.kind,
            name: r.name,
            base: base ?? null,
            theirs: theirs ?? null,
            yours: yoursOf(candidate, r.kind, r.name) ?? null,
            fields: clash,
          },
          plan: candidate,
        },
      );
    }
  }

  /** When the cache lacks the version the user saw but the server has it, wait for the cache. */
  async #awaitSeen(principal: Principal, namespace: string, r: StaleRef): Promise<boolean> {
    if (this.#d.cache.history.at(`${r.kind}/${namespace}/${r.name}`, r.seen)) return false;
    try {
      const live = await getObject(this.#clientOf(principal), r.kind, namespace, r.name);
      if (live.metadata.resourceVersion !== r.seen) return false;
    } catch {
      return false;
    }
    return this.#waitForVersion(r.kind, namespace, r.name, r.seen);
  }

  async #catchUp(
    principal: Principal,
    kind: StaleRef['kind'],
    namespace: string,
    name: string,
  ): Promise<void> {
    try {
      const live = await getObject(this.#clientOf(principal), kind, namespace, name);
      const rv = live.metadata.resourceVersion;
      if (rv !== undefined) await this.#waitForVersion(kind, namespace, name, rv);
    } catch {
      // Gone or unreadable: the re-plan says so.
    }
  }

  async #waitForVersion(
    kind: StaleRef['kind'],
    namespace: string,
    name: string,
    rv: string,
  ): Promise<boolean> {
    const deadline = Date.now() + (this.#d.catchUpMs ?? 3000);
    const store = (this.#d.cache.stores as Record<string, { get(ns: string, n: string): unknown }>)[
      kind
    ];
    while (Date.now() < deadline) {
      const o = store?.get(namespace, name) as
        { metadata?: { resourceVersion?: string } } | undefined;
      if (o?.metadata?.resourceVersion === rv) return true;
      await sleep(25);
    }
    return false;
  }

  /**
   * The user may perform every step: one access review per distinct (verb, kind, name). A plan
   * without steps (refused by its rules) is checked for its operation's main verb on its target.
   */
  async #authorizePlan(principal: Principal, plan: Plan): Promise<void> {
    const checks = new Map<string, Check>();
    if (plan.steps.length === 0) {
      const verb = plan.operation.startsWith('O-CREATE')
        ? 'create'
        : plan.operation === 'O-DELETE-POOL'
          ? 'delete'
          : 'patch';
      checks.set('target', {
        verb,
        kind: plan.target.kind,
        namespace: plan.namespace,
        ...(verb === 'create' ? {} : { name: plan.target.name }),
      });
    }
    for (const s of plan.steps) {
      const check: Check = {
        verb: s.verb,
        kind: s.kind,
        namespace: s.namespace,
        ...(s.verb === 'create' ? {} : { name: s.name }),
      };
      checks.set(`${check.verb}/${check.kind}/${check.name ?? ''}`, check);
    }
    await this.#d.authorize(principal, [...checks.values()]);
  }

  #executionError(
    plan: Plan,
    execution: ExecutionResult,
    audit: (result: string, plan: Plan | undefined, extra?: Record<string, unknown>) => void,
    attempts = 1,
  ): HttpError {
    const e = execution.error;
    const status = e?.status ?? 0;
    const step = execution.failedStep !== undefined ? plan.steps[execution.failedStep] : undefined;
    const where = step
      ? `step ${String((execution.failedStep ?? 0) + 1)} (${step.verb} ${step.kind} ${step.name})`
      : 'a step';
    // What the cluster holds now, step by step: nothing half-applied is left unexplained.
    const named = (o: ExecutionResult['steps'][number]) =>
      `step ${String(o.index + 1)} (${o.verb} ${o.kind} ${o.name})`;
    const kept = execution.steps.filter((o) =>
      ['applied', 'undo-failed', 'no-undo'].includes(o.status),
    );
    const doubtful = execution.steps.filter((o) => o.status === 'unknown');
    // Issue 25: a step refused before any write (the dry run, or the first write) is said to be
    // that, not an undo of steps that never ran.
    const refusedFirst = execution.untouched && status !== 0;
    const undone =
      (kept.length > 0
        ? `; still applied, not undone: ${kept.map(named).join(', ')}`
        : execution.rolledBack
          ? '; completed steps were undone'
          : execution.untouched
            ? refusedFirst
              ? '; refused before any change: nothing was changed'
              : '; nothing was changed'
            : '') +
      (doubtful.length > 0
        ? `; the connection to the API server was lost after ${doubtful.map(named).join(', ')} was sent: it may or may not have been applied — check before retrying`
        : '');
    // A conflict names the object that changed, not the server's words for a failed `test` op
    // ("an error in our request"), which would send the user looking for a fault in their input.
    const message =
      execution.conflict && step
        ? `${where} failed: ${step.kind} ${step.name} was changed by someone else while this change was being applied (${String(attempts)} ${attempts === 1 ? 'attempt' : 'attempts'}); reload and retry${undone}`
        : `${where} failed: ${e?.message ?? 'unknown error'}${undone}`;
    const path = `steps.${String(execution.failedStep ?? 0)}`;
    const details =
      execution.conflict && step
        ? [
            issue('R-PLAN-STALE', path, 'bff.conflict.changing', message, {
              kind: step.kind,
              name: step.name,
              attempts,
            }),
          ]
        : issuesOfApiError(
            new KubeApiError(status, e?.reason, e?.message ?? message, e?.causes ?? []),
            path,
          );
    const code = execution.conflict
      ? 'Conflict'
      : status === HEADERS_TOO_LARGE
        ? 'CredentialTooLarge'
        : status === 403
          ? 'Forbidden'
          : status === 422 || status === 400
            ? 'Invalid'
            : status === 503
              ? (e?.reason ?? 'UpstreamUnavailable')
              : status === 504
                ? 'UpstreamTimeout'
                : 'UpstreamError';
    const http = execution.conflict
      ? 409
      : status === HEADERS_TOO_LARGE
        ? 400
        : status === 403
          ? 403
          : status === 422 || status === 400
            ? 422
            : status === 503 || status === 504
              ? 503
              : 502;
    audit(execution.conflict ? 'conflict' : refusedFirst ? 'refused' : 'failed', plan, {
      status: http,
      rolledBack: execution.rolledBack,
      message,
    });
    return new HttpError(http, code, message, details, { plan, execution, audited: true });
  }
}
