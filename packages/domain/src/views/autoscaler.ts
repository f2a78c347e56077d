import { z } from 'zod';
import {
  autoscalerAnnotationsOf,
  canScaleFromZero,
  R_AS_BOTH_OR_NEITHER,
  R_AS_MIN_MAX,
  R_AS_REPLICAS_WITHIN,
  R_AS_SCALE_FROM_ZERO,
  R_AS_WHOLE_NUMBER,
  type AutoscalerBounds,
} from '../rules/autoscale';
import type { MachineDeployment } from '../schemas/capi';
import type { ClusterNodesView } from './node';
import type { MessageKey, MessageParams } from '../i18n/messages';
import type { RuleId } from '../rules/issue';
import { warning } from '../rules/make';
import type { ViewProblem } from './problem';

/**
 * The cluster autoscaler on a worker pool's card (issue 26 item 2): the bounds its MachineDeployment
 * carries (R-AS-1..4, 6), and, where the workload cluster runs the autoscaler, what the autoscaler
 * itself says of the pool (its status ConfigMap `kube-system/cluster-autoscaler-status`).
 */

/** The bounds annotations of a pool as the autoscaler reads them. */
export interface PoolAutoscalerView {
  /** The annotations' values as written (an absent one left out). */
  minSize?: string;
  maxSize?: string;
  /** The bounds the autoscaler manages the pool between; absent when it ignores them. */
  bounds?: AutoscalerBounds;
  /** Why the autoscaler ignores the annotations (R-AS-1..3). */
  ignored?: 'incomplete' | 'invalid' | 'minAboveMax' | 'maxZero';
  /** The scale-from-zero capacity annotations are there (R-AS-6). */
  scaleFromZero: boolean;
}

/** The pool's autoscaler view; undefined when it carries neither annotation. */
export function poolAutoscalerView(md: MachineDeployment): PoolAutoscalerView | undefined {
  const a = autoscalerAnnotationsOf(md);
  if (a.state === 'none') return undefined;
  const scaleFromZero = canScaleFromZero(md);
  if (a.state === 'bounds') {
    return { minSize: a.min, maxSize: a.max, bounds: a.bounds, scaleFromZero };
  }
  return {
    ...(a.min !== undefined ? { minSize: a.min } : {}),
    ...(a.max !== undefined ? { maxSize: a.max } : {}),
    ignored: a.reason,
    scaleFromZero,
  };
}

const IGNORED = {
  incomplete: { rule: R_AS_BOTH_OR_NEITHER, key: 'autoscale.problem.incomplete' },
  invalid: { rule: R_AS_WHOLE_NUMBER, key: 'autoscale.problem.invalid' },
  minAboveMax: { rule: R_AS_MIN_MAX, key: 'autoscale.problem.minAboveMax' },
  maxZero: { rule: R_AS_MIN_MAX, key: 'autoscale.problem.maxZero' },
} as const;

/**
 * A rule's finding on the pool as it stands, in the rules' catalog (not the views': English
 * arrives filled in, the other languages with the rules' pack, so the web's first load carries
 * none of these texts).
 */
function problem(code: string, rule: RuleId, key: MessageKey, params: MessageParams): ViewProblem {
  const i = warning(rule, '', key, params);
  return { code, severity: i.severity, rule: i.rule, messageKey: key, params, message: i.message };
}

/** What is wrong with a pool's bounds as they stand, as the card's problems. */
export function autoscalerProblems(
  view: PoolAutoscalerView | undefined,
  replicas: number,
): ViewProblem[] {
  if (!view) return [];
  const min = view.minSize ?? '—';
  const max = view.maxSize ?? '—';
  if (view.ignored) {
    const { rule, key } = IGNORED[view.ignored];
    return [problem('autoscaler-ignored', rule, key, { min, max })];
  }
  const b = view.bounds;
  if (!b) return [];
  const out: ViewProblem[] = [];
  if (replicas < b.minSize || replicas > b.maxSize) {
    out.push(
      problem(
        'autoscaler-replicas-outside',
        R_AS_REPLICAS_WITHIN,
        'autoscale.problem.replicasOutside',
        {
          replicas,
          min: b.minSize,
          max: b.maxSize,
        },
      ),
    );
  }
  if (replicas === 0 && !view.scaleFromZero) {
    out.push(
      problem('autoscaler-stuck-at-zero', R_AS_SCALE_FROM_ZERO, 'autoscale.problem.atZero', {}),
    );
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */

/** One of the autoscaler's conditions (Health, ScaleUp, ScaleDown), as it wrote it. */
export interface AutoscalerConditionView {
  /** Healthy / Unhealthy; InProgress, NoActivity, Backoff…; CandidatesPresent / NoCandidates. */
  status: string;
  /** The free text the legacy format carries after the status (`ready=3 …`). */
  message?: string;
  /** RFC 3339, when the time could be read; never Go's zero time. */
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

export interface NodeGroupHealthView extends AutoscalerConditionView {
  ready?: number;
  registered?: number;
  /** The node group's target size as the autoscaler sees it (`cloudProviderTarget`). */
  target?: number;
  minSize?: number;
  maxSize?: number;
}

export interface NodeGroupScaleUpView extends AutoscalerConditionView {
  /** Why scale-ups are backed off, when they are. */
  backoff?: { errorCode?: string; errorMessage?: string };
}

export interface NodeGroupScaleDownView extends AutoscalerConditionView {
  candidates?: number;
}

/** One node group of the autoscaler's status; for a pool: `MachineDeployment/<ns>/<name>`. */
export interface NodeGroupStatusView {
  name: string;
  health?: NodeGroupHealthView;
  scaleUp?: NodeGroupScaleUpView;
  scaleDown?: NodeGroupScaleDownView;
}

/** The autoscaler's status document, whichever of upstream's two formats it was written in. */
export interface AutoscalerStatusView {
  /** `yaml`: cluster-autoscaler 1.30 and later; `text`: the readable format of earlier releases. */
  format: 'yaml' | 'text';
  /** When it wrote the document, as it wrote it (Go's time format). */
  time?: string;
  /** Running or Initializing (the YAML format only). */
  autoscalerStatus?: string;
  clusterWide: {
    health?: NodeGroupHealthView;
    scaleUp?: AutoscalerConditionView;
    scaleDown?: NodeGroupScaleDownView;
  };
  nodeGroups: NodeGroupStatusView[];
}

/**
 * The node group id the Cluster API provider gives a MachineDeployment
 * (`unstructuredScalableResource.ID`: kind/namespace/name).
 */
export const nodeGroupIdOf = (namespace: string, machineDeployment: string): string =>
  `MachineDeployment/${namespace}/${machineDeployment}`;

/** What the BFF answers for a cluster's autoscaler status: the status, or why there is none. */
export type ClusterAutoscalerView =
  | Exclude<ClusterNodesView, { status: 'ok' }>
  | {
      status: 'ok';
      secret: string;
      /** Where the status is read from (`kube-system/cluster-autoscaler-status`). */
      configMap: string;
      /** False: no autoscaler writes its status in this cluster (none runs, or it writes none). */
      found: boolean;
      /** The ConfigMap's last-updated annotation, as written. */
      lastUpdated?: string;
      document?: AutoscalerStatusView;
      /** Why the document could not be read, when it could not. */
      error?: string;
    };

/* The YAML format (clusterstate/api/types.go), loosely: what is not as expected is left out. */

const opt = <T extends z.ZodType>(t: T) => t.optional().catch(undefined);
// A YAML reader may give an unquoted timestamp as a Date.
const Str = opt(
  z
    .union([z.string(), z.number(), z.date()])
    .transform((v) => (v instanceof Date ? v.toISOString() : String(v))),
);
const Num = opt(z.number().int());
const NodeCountsSchema = opt(
  z.looseObject({
    registered: opt(z.looseObject({ total: Num, ready: Num })),
  }),
);
const ConditionSchema = z.looseObject({
  status: Str,
  lastProbeTime: Str,
  lastTransitionTime: Str,
  nodeCounts: NodeCountsSchema,
  cloudProviderTarget: Num,
  minSize: Num,
  maxSize: Num,
  candidates: Num,
  backoffInfo: opt(z.looseObject({ errorCode: Str, errorMessage: Str })),
});
const StatusDocumentSchema = z.looseObject({
  time: Str,
  autoscalerStatus: Str,
  clusterWide: opt(
    z.looseObject({
      health: opt(ConditionSchema),
      scaleUp: opt(ConditionSchema),
      scaleDown: opt(ConditionSchema),
    }),
  ),
  nodeGroups: opt(
    z.array(
      z.looseObject({
        name: Str,
        health: opt(ConditionSchema),
        scaleUp: opt(ConditionSchema),
        scaleDown: opt(ConditionSchema),
      }),
    ),
  ),
});
type Condition = z.infer<typeof ConditionSchema>;

/** A time as written (RFC 3339, or Go's `time.String`), as RFC 3339; undefined if zero or unreadable. */
export function autoscalerTime(written: string | undefined): string | undefined {
  if (written === undefined) return undefined;
  // Go's time.String(): "2024-01-02 03:04:05.123456789 +0000 UTC m=+12.3" (the monotonic part last).
  const go = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)? ([+-]\d{2})(\d{2})\b/.exec(written);
  const iso = go
    ? `${go[1] ?? ''}T${go[2] ?? ''}${(go[3] ?? '').slice(0, 4)}${go[4] ?? ''}:${go[5] ?? ''}`
    : written;
  if (iso.startsWith('0001-01-01')) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

function condition(c: Condition | undefined): AutoscalerConditionView | undefined {
  if (!c?.status) return undefined;
  const probe = autoscalerTime(c.lastProbeTime);
  const transition = autoscalerTime(c.lastTransitionTime);
  return {
    status: c.status,
    ...(probe ? { lastProbeTime: probe } : {}),
    ...(transition ? { lastTransitionTime: transition } : {}),
  };
}

const num = (key: string, v: number | undefined) => (v === undefined ? {} : { [key]: v });

function health(c: Condition | undefined): NodeGroupHealthView | undefined {
  const base = condition(c);
  if (!base || !c) return undefined;
  return {
    ...base,
    ...num('ready', c.nodeCounts?.registered?.ready),
    ...num('registered', c.nodeCounts?.registered?.total),
    ...num('target', c.cloudProviderTarget),
    ...num('minSize', c.minSize),
    ...num('maxSize', c.maxSize),
  };
}

function scaleUp(c: Condition | undefined): NodeGroupScaleUpView | undefined {
  const base = condition(c);
  if (!base || !c) return undefined;
  const b = c.backoffInfo;
  return b?.errorCode || b?.errorMessage
    ? {
        ...base,
        backoff: {
          ...(b.errorCode ? { errorCode: b.errorCode } : {}),
          ...(b.errorMessage ? { errorMessage: b.errorMessage } : {}),
        },
      }
    : base;
}

function scaleDown(c: Condition | undefined): NodeGroupScaleDownView | undefined {
  const base = condition(c);
  if (!base || !c) return undefined;
  return { ...base, ...num('candidates', c.candidates) };
}

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function fromYaml(doc: z.infer<typeof StatusDocumentSchema>): AutoscalerStatusView {
  return {
    format: 'yaml',
    ...(doc.time !== undefined ? { time: doc.time } : {}),
    ...(doc.autoscalerStatus !== undefined ? { autoscalerStatus: doc.autoscalerStatus } : {}),
    clusterWide: defined({
      health: health(doc.clusterWide?.health),
      scaleUp: condition(doc.clusterWide?.scaleUp),
      scaleDown: scaleDown(doc.clusterWide?.scaleDown),
    }),
    nodeGroups: (doc.nodeGroups ?? []).flatMap((g) =>
      g.name
        ? [
            defined({
              name: g.name,
              health: health(g.health),
              scaleUp: scaleUp(g.scaleUp),
              scaleDown: scaleDown(g.scaleDown),
            }),
          ]
        : [],
    ),
  };
}

/* The readable text format of cluster-autoscaler before 1.30 (clusterstate/api/utils.go). */

const LEGACY_HEADER = /^Cluster-autoscaler status at (.+):$/;
const LEGACY_LINE = /^\s*(Health|ScaleUp|ScaleDown|Name|LastProbeTime|LastTransitionTime):\s*(.*)$/;

const countIn = (message: string, key: string): number | undefined => {
  const m = new RegExp(`(?:^|[\\s(])${key}=(\\d+)`).exec(message);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
};

type Section = NodeGroupStatusView;

function fromText(text: string): AutoscalerStatusView | undefined {
  const lines = text.split('\n');
  let time: string | undefined;
  const clusterWide: Section = { name: '' };
  const groups: Section[] = [];
  let inGroups = false;
  let section: Section | undefined;
  let last: AutoscalerConditionView | undefined;
  let seen = false;
  for (const line of lines) {
    const header = LEGACY_HEADER.exec(line.trim());
    if (header) {
      time = header[1];
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === 'Cluster-wide:') {
      section = clusterWide;
      seen = true;
      continue;
    }
    if (trimmed === 'NodeGroups:') {
      inGroups = true;
      section = undefined;
      seen = true;
      continue;
    }
    const m = LEGACY_LINE.exec(line);
    if (!m) continue;
    const key = m[1] ?? '';
    const value = (m[2] ?? '').trim();
    if (key === 'Name') {
      if (!inGroups) continue;
      section = { name: value };
      groups.push(section);
      last = undefined;
      continue;
    }
    if (key === 'LastProbeTime' || key === 'LastTransitionTime') {
      if (!last) continue;
      const t = autoscalerTime(value);
      if (t) {
        if (key === 'LastProbeTime') last.lastProbeTime = t;
        else last.lastTransitionTime = t;
      }
      continue;
    }
    if (!section) continue;
    const paren = value.indexOf(' (');
    const status = (paren < 0 ? value : value.slice(0, paren)).trim();
    const message = paren < 0 ? undefined : value.slice(paren + 2).replace(/\)$/, '');
    if (status === '' || status === '<unknown>') {
      last = undefined;
      continue;
    }
    const base: AutoscalerConditionView = { status, ...(message ? { message } : {}) };
    if (key === 'Health') {
      const h: NodeGroupHealthView = {
        ...base,
        ...num('ready', message ? countIn(message, 'ready') : undefined),
        ...num('registered', message ? countIn(message, 'registered') : undefined),
        ...num('target', message ? countIn(message, 'cloudProviderTarget') : undefined),
        ...num('minSize', message ? countIn(message, 'minSize') : undefined),
        ...num('maxSize', message ? countIn(message, 'maxSize') : undefined),
      };
      section.health = h;
      last = h;
    } else if (key === 'ScaleUp') {
      section.scaleUp = base;
      last = base;
    } else {
      const d: NodeGroupScaleDownView = {
        ...base,
        ...num('candidates', message ? countIn(message, 'candidates') : undefined),
      };
      section.scaleDown = d;
      last = d;
    }
  }
  if (!seen && time === undefined) return undefined;
  return {
    format: 'text',
    ...(time !== undefined ? { time } : {}),
    clusterWide: defined({
      health: clusterWide.health,
      scaleUp: clusterWide.scaleUp,
      scaleDown: clusterWide.scaleDown,
    }),
    nodeGroups: groups.filter((g) => g.name !== ''),
  };
}

/**
 * The autoscaler's status document (the ConfigMap's `status`), in either of upstream's formats:
 * the YAML of cluster-autoscaler 1.30 and later (parsed by `parseYaml`, the caller's bounded YAML
 * reader: `domain` parses no YAML itself), or the readable text of earlier releases. Fields that
 * are missing or not as expected are left out; a document in neither format is an error.
 */
export function parseAutoscalerStatus(
  text: string,
  parseYaml: (text: string) => unknown,
): { document: AutoscalerStatusView } | { error: string } {
  if (text.trimStart().startsWith('Cluster-autoscaler status at ')) {
    const doc = fromText(text);
    if (doc) return { document: doc };
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (e) {
    return { error: `the status is neither upstream’s YAML nor its text format: ${String(e)}` };
  }
  const doc = StatusDocumentSchema.safeParse(parsed);
  if (
    !doc.success ||
    (doc.data.autoscalerStatus === undefined && doc.data.nodeGroups === undefined)
  ) {
    return { error: 'the status is neither upstream’s YAML nor its text format' };
  }
  return { document: fromYaml(doc.data) };
}

/** The pool's node group in the autoscaler's status, when the autoscaler lists it. */
export function nodeGroupOf(
  doc: AutoscalerStatusView | undefined,
  namespace: string,
  machineDeployment: string,
): NodeGroupStatusView | undefined {
  const id = nodeGroupIdOf(namespace, machineDeployment);
  return doc?.nodeGroups.find((g) => g.name === id);
}
