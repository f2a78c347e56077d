import {
  fieldError,
  invalid,
  type AdmissionHook,
  type AdmissionRequest,
  type AdmissionResult,
  type FieldError,
  type KubeObject,
} from '@dcs/apiserver';
import {
  CAPI_HUB_VERSION,
  durationToSeconds,
  GoDurationError,
  intOrPercentProblem,
  kindTable,
  LABEL_CLUSTER_NAME,
  LABEL_DEPLOYMENT_NAME,
  LABEL_SET_NAME,
  parseGoDurationExact,
} from '@dcs/domain';

/**
 * What Cluster API v1.14.0's admission webhooks refuse or default beyond the CRD schemas
 * (`internal/webhooks/{machinedeployment,machineset,machine}.go`,
 * `controlplane/kubeadm/internal/webhooks/kubeadm_control_plane.go`,
 * `bootstrap/kubeadm/internal/webhooks/kubeadmconfig.go`), with their names and messages, played
 * on the hub version (`CAPI_HUB_VERSION`) as the rest of the simulator's webhooks:
 *
 * - **Decoding** (every defaulting webhook, first): a `metav1.Duration` field of v1beta1 that is
 *   not a Go duration cannot be decoded; controller-runtime answers `Errored(400, err)`, which
 *   kube-apiserver reports as `admission webhook "default.<kind>…" denied the request: time:
 *   invalid duration "5 minutes"` (code 400, no reason). On v1.14 a v1beta1 request is converted
 *   to v1beta2 before any webhook sees it, and the conversion refuses it first (its own message).
 * - **Defaulting**: the cluster-name label, replicas (the autoscaler's min-size annotation on a
 *   new object, else 1), a MachineDeployment's RollingUpdate strategy (maxSurge 1,
 *   maxUnavailable 0), the selector and template labels, the `v` of a version. Nothing else is
 *   written: a defaulting that changes nothing leaves the request as it came (the API server then
 *   writes nothing back).
 * - **Validation** (`apierrors.NewInvalid`, answered 422 with upstream's causes): immutable
 *   `spec.clusterName`; a selector that must match the template's labels; a name that must be a
 *   label value; versions that must be semantic versions; a Machine's bootstrap; a
 *   KubeadmControlPlane's replicas (positive, odd when etcd is stacked); a KubeadmConfig file's
 *   `content` and `contentFrom` (one of them).
 *
 * The checks read raw objects (the hub's JSON) and are pure; `capiWebhookHooks` wraps them.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (o: unknown, ...path: string[]): unknown => {
  let v = o;
  for (const k of path) v = isObj(v) && Object.hasOwn(v, k) ? v[k] : undefined;
  return v;
};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
function child(o: Obj, key: string): Obj {
  const v = o[key];
  if (isObj(v)) return v;
  const made: Obj = {};
  o[key] = made;
  return made;
}
function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

// ---------------------------------------------------------------------------------------------
// durations (metav1.Duration fields of v1beta1)

type DurationPath = readonly string[];
const MACHINE_TIMEOUTS = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'];
const under = (prefix: readonly string[], names: readonly string[]): DurationPath[] =>
  names.map((n) => [...prefix, n]);
const KUBEADM_DURATIONS = (p: readonly string[]): DurationPath[] => [
  [...p, 'initConfiguration', 'bootstrapTokens', '[]', 'ttl'],
  [...p, 'clusterConfiguration', 'apiServer', 'timeoutForControlPlane'],
  [...p, 'joinConfiguration', 'discovery', 'timeout'],
];

/** The first value at `path` (`[]` walks a list) that is not a Go duration: Go's message. */
function badDuration(obj: unknown, path: DurationPath): string | undefined {
  const [head, ...rest] = path;
  if (head === undefined) {
    if (typeof obj !== 'string') return undefined;
    try {
      parseGoDurationExact(obj);
      return undefined;
    } catch (err) {
      if (err instanceof GoDurationError) return err.message;
      throw err;
    }
  }
  if (head === '[]') {
    if (!Array.isArray(obj)) return undefined;
    for (const item of obj) {
      const bad = badDuration(item, rest);
      if (bad) return bad;
    }
    return undefined;
  }
  return badDuration(at(obj, head), rest);
}

// ---------------------------------------------------------------------------------------------
// validation helpers, as apimachinery words them

/** `version.KubeSemver` of Cluster API's util/version. */
const KUBE_SEMVER = /^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-0-9a-zA-Z_.+]*)?$/;

/** `validation.IsValidLabelValue`'s messages. */
function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (value !== '' && !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value))
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  return errs;
}

/** `metav1.LabelSelectorAsSelector(...).Matches(labels)` for matchLabels and matchExpressions. */
function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(stringMap(at(selector, 'matchLabels'))))
    if (labels[k] !== v) return false;
  const exprs = at(selector, 'matchExpressions');
  for (const e of Array.isArray(exprs) ? exprs : []) {
    const key = str(at(e, 'key')) ?? '';
    const op = str(at(e, 'operator'));
    const values = (Array.isArray(at(e, 'values')) ? (at(e, 'values') as unknown[]) : []).filter(
      (x): x is string => typeof x === 'string',
    );
    const has = Object.hasOwn(labels, key);
    const value = labels[key];
    if (op === 'In' && !(has && value !== undefined && values.includes(value))) return false;
    if (op === 'NotIn' && has && value !== undefined && values.includes(value)) return false;
    if (op === 'Exists' && !has) return false;
    if (op === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** `labels.Selector.String()`: requirements sorted by key, `k=v`, `k in (a,b)`, `k`, `!k`. */
function selectorString(selector: unknown): string {
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(stringMap(at(selector, 'matchLabels'))))
    reqs.push({ key: k, text: `${k}=${v}` });
  const exprs = at(selector, 'matchExpressions');
  for (const e of Array.isArray(exprs) ? exprs : []) {
    const key = str(at(e, 'key')) ?? '';
    const vals = at(e, 'values');
    const values = (Array.isArray(vals) ? vals : [])
      .filter((x): x is string => typeof x === 'string')
      .sort();
    switch (str(at(e, 'operator'))) {
      case 'In':
        reqs.push({ key, text: `${key} in (${values.join(',')})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${values.join(',')})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
      default:
        break;
    }
  }
  return reqs
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',');
}

/** Go's `%#v` of a `map[string]string` (fmt sorts the keys). */
function goStringMap(m: Record<string, string>): string {
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function nameErrors(obj: KubeObject): FieldError[] {
  const name = obj.metadata.name ?? '';
  return labelValueErrors(name).map((e) =>
    fieldError.invalid('metadata.name', name, `must be a valid label value: ${e}`),
  );
}

function clusterNameImmutable(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (!old) return [];
  return at(old, 'spec', 'clusterName') !== at(obj, 'spec', 'clusterName')
    ? [fieldError.forbidden('spec.clusterName', 'field is immutable')]
    : [];
}

function versionErrors(version: unknown, path: string): FieldError[] {
  if (typeof version !== 'string' || version === '' || KUBE_SEMVER.test(version)) return [];
  return [fieldError.invalid(path, version, 'must be a valid semantic version')];
}

// ---------------------------------------------------------------------------------------------
// the webhooks

export interface CapiWebhook {
  group: string;
  kind: keyof typeof kindTable;
  /** metav1.Duration fields the defaulting webhook must decode. */
  durations: DurationPath[];
  /** In place; `old` on update. */
  default?: (obj: KubeObject, old: KubeObject | undefined) => void;
  /** Field errors, answered as `apierrors.NewInvalid`. */
  validate?: (obj: KubeObject, old: KubeObject | undefined) => FieldError[];
}

const AUTOSCALER_MIN = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const AUTOSCALER_MAX = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';

/**
 * `calculateMachineDeploymentReplicas` (and the MachineSet's): replicas as set; else, with both
 * autoscaler annotations, the min size on create and the old value clamped to [min, max] on
 * update; else 1. Unparseable annotations leave replicas unset (upstream answers an error).
 */
function defaultReplicas(obj: KubeObject, old: KubeObject | undefined): void {
  const spec = child(obj, 'spec');
  if (spec.replicas !== undefined && spec.replicas !== null) return;
  const ann = obj.metadata.annotations ?? {};
  const min = ann[AUTOSCALER_MIN];
  const max = ann[AUTOSCALER_MAX];
  if (min !== undefined && max !== undefined) {
    if (!/^[+-]?\d+$/.test(min) || !/^[+-]?\d+$/.test(max)) return;
    const lo = Number(min);
    const hi = Number(max);
    const before = at(old, 'spec', 'replicas');
    if (!old || typeof before !== 'number') spec.replicas = lo;
    else spec.replicas = Math.min(Math.max(before, lo), hi);
    return;
  }
  spec.replicas = 1;
}

function defaultClusterLabel(obj: KubeObject): void {
  const cluster = str(at(obj, 'spec', 'clusterName'));
  if (cluster === undefined) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LABEL_CLUSTER_NAME]: cluster };
}

function defaultVersion(holder: unknown): void {
  if (!isObj(holder)) return;
  const v = holder.version;
  if (typeof v === 'string' && v !== '' && !v.startsWith('v')) holder.version = `v${v}`;
}

/** The selector and template labels of a MachineDeployment or MachineSet. */
function defaultSelector(obj: KubeObject, nameLabel: string): void {
  const spec = child(obj, 'spec');
  const selector = child(spec, 'selector');
  const matchLabels = child(selector, 'matchLabels');
  const template = child(spec, 'template');
  const meta = child(template, 'metadata');
  const labels = child(meta, 'labels');
  const exprs = selector.matchExpressions;
  if (Object.keys(matchLabels).length === 0 && !(Array.isArray(exprs) && exprs.length > 0)) {
    matchLabels[nameLabel] = obj.metadata.name ?? '';
    labels[nameLabel] = obj.metadata.name ?? '';
  }
  const cluster = str(spec.clusterName);
  if (cluster !== undefined) {
    matchLabels[LABEL_CLUSTER_NAME] = cluster;
    labels[LABEL_CLUSTER_NAME] = cluster;
  }
}

function selectorErrors(obj: KubeObject, forbidden: boolean): FieldError[] {
  const selector = at(obj, 'spec', 'selector');
  const labels = stringMap(at(obj, 'spec', 'template', 'metadata', 'labels'));
  if (selectorMatches(selector, labels)) return [];
  const detail = `must match spec.selector ${JSON.stringify(selectorString(selector))}`;
  const path = 'spec.template.metadata.labels';
  // MachineDeployment answers Forbidden, MachineSet Invalid with the labels.
  if (forbidden) return [fieldError.forbidden(path, detail)];
  return [
    {
      type: 'FieldValueInvalid',
      field: path,
      body: `Invalid value: ${goStringMap(labels)}: ${detail}`,
    },
  ];
}

const CAPI = 'cluster.x-k8s.io';

export const capiWebhooks: readonly CapiWebhook[] = [
  {
    group: CAPI,
    kind: 'MachineDeployment',
    durations: under(['spec', 'template', 'spec'], MACHINE_TIMEOUTS),
    default: (md, old) => {
      defaultClusterLabel(md);
      defaultReplicas(md, old);
      const spec = child(md, 'spec');
      const strategy = child(spec, 'strategy');
      strategy.type ??= 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const ru = child(strategy, 'rollingUpdate');
        ru.maxSurge ??= 1;
        ru.maxUnavailable ??= 0;
      }
      defaultSelector(md, LABEL_DEPLOYMENT_NAME);
      defaultVersion(at(md, 'spec', 'template', 'spec'));
    },
    validate: (md, old) => [
      ...nameErrors(md),
      ...selectorErrors(md, true),
      ...clusterNameImmutable(md, old),
      ...versionErrors(at(md, 'spec', 'template', 'spec', 'version'), 'spec.template.spec.version'),
    ],
  },
  {
    group: CAPI,
    kind: 'MachineSet',
    durations: under(['spec', 'template', 'spec'], MACHINE_TIMEOUTS),
    default: (ms, old) => {
      defaultClusterLabel(ms);
      defaultReplicas(ms, old);
      defaultSelector(ms, LABEL_SET_NAME);
      defaultVersion(at(ms, 'spec', 'template', 'spec'));
    },
    validate: (ms, old) => [
      ...selectorErrors(ms, false),
      ...clusterNameImmutable(ms, old),
      ...versionErrors(at(ms, 'spec', 'template', 'spec', 'version'), 'spec.template.spec.version'),
    ],
  },
  {
    group: CAPI,
    kind: 'Machine',
    durations: under(['spec'], MACHINE_TIMEOUTS),
    default: (m) => {
      defaultClusterLabel(m);
      defaultVersion(at(m, 'spec'));
    },
    validate: (m, old) => {
      const errs: FieldError[] = [];
      const bootstrap = at(m, 'spec', 'bootstrap');
      const machinePool = Object.hasOwn(m.metadata.labels ?? {}, 'cluster.x-k8s.io/pool-name');
      if (
        at(bootstrap, 'configRef') === undefined &&
        at(bootstrap, 'dataSecretName') === undefined &&
        !machinePool
      )
        errs.push(
          fieldError.required(
            'spec.bootstrap',
            'expected either spec.bootstrap.dataSecretName or spec.bootstrap.configRef to be populated',
          ),
        );
      errs.push(...clusterNameImmutable(m, old));
      errs.push(...versionErrors(at(m, 'spec', 'version'), 'spec.version'));
      return errs;
    },
  },
  {
    // internal/webhooks/machinehealthcheck.go (issue 26 item 1).
    group: CAPI,
    kind: 'MachineHealthCheck',
    durations: [
      ['spec', 'nodeStartupTimeout'],
      ['spec', 'unhealthyConditions', '[]', 'timeout'],
      ['spec', 'unhealthyMachineConditions', '[]', 'timeout'],
    ],
    default: (mhc) => {
      defaultClusterLabel(mhc);
      const spec = child(mhc, 'spec');
      // DefaultNodeStartupTimeoutSeconds (600); v1.14 writes no default maxUnhealthy.
      spec.nodeStartupTimeout ??= '10m0s';
      const template = spec.remediationTemplate;
      if (isObj(template) && (template.namespace === undefined || template.namespace === '')) {
        template.namespace = mhc.metadata.namespace ?? '';
      }
    },
    validate: (mhc, old) => {
      const errs: FieldError[] = [...clusterNameImmutable(mhc, old)];
      const selector = at(mhc, 'spec', 'selector');
      const matchLabels = stringMap(at(selector, 'matchLabels'));
      const exprs = at(selector, 'matchExpressions');
      if (Object.keys(matchLabels).length === 0 && !(Array.isArray(exprs) && exprs.length > 0)) {
        errs.push(fieldError.required('spec.selector', 'selector must not be empty'));
      }
      const cluster = str(at(mhc, 'spec', 'clusterName'));
      const labelled = matchLabels[LABEL_CLUSTER_NAME];
      if (labelled !== undefined && labelled !== cluster) {
        errs.push(
          fieldError.invalid(
            `spec.selector.matchLabels.${LABEL_CLUSTER_NAME}`,
            labelled,
            'must match spec.clusterName',
          ),
        );
      }
      const startup = str(at(mhc, 'spec', 'nodeStartupTimeout'));
      if (startup !== undefined) {
        const seconds = durationToSeconds(startup);
        if (seconds !== 0 && seconds < 30) {
          errs.push(fieldError.invalid('spec.nodeStartupTimeout', startup, 'must be at least 30s'));
        }
      }
      // GetScaledValueFromIntOrPercent: any int passes; a string must be an integer percentage.
      const max = at(mhc, 'spec', 'maxUnhealthy');
      if (typeof max === 'string' && intOrPercentProblem(max) !== undefined) {
        const body = max.slice(0, -1);
        const why = max.endsWith('%')
          ? `invalid value "${max}": strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`
          : 'invalid type: string is not a percentage';
        errs.push(
          fieldError.invalid(
            'spec.maxUnhealthy',
            max,
            `must be either an int or a percentage: invalid value for IntOrString: ${why}`,
          ),
        );
      }
      const ns = str(at(mhc, 'spec', 'remediationTemplate', 'namespace'));
      if (ns !== undefined && ns !== mhc.metadata.namespace) {
        errs.push(
          fieldError.invalid(
            'spec.remediationTemplate.namespace',
            ns,
            'must match metadata.namespace',
          ),
        );
      }
      return errs;
    },
  },
  {
    group: CAPI,
    kind: 'Cluster',
    durations: [
      ...under(['spec', 'topology', 'controlPlane'], MACHINE_TIMEOUTS),
      ...under(['spec', 'topology', 'workers', 'machineDeployments', '[]'], MACHINE_TIMEOUTS),
    ],
  },
  {
    group: 'controlplane.cluster.x-k8s.io',
    kind: 'KubeadmControlPlane',
    durations: [
      ...under(['spec', 'machineTemplate'], MACHINE_TIMEOUTS),
      ['spec', 'remediationStrategy', 'retryPeriod'],
      ['spec', 'remediationStrategy', 'minHealthyPeriod'],
      ...KUBEADM_DURATIONS(['spec', 'kubeadmConfigSpec']),
    ],
    default: (kcp) => {
      const spec = child(kcp, 'spec');
      spec.replicas ??= 1;
      defaultVersion(spec);
    },
    validate: (kcp) => {
      const errs: FieldError[] = [];
      const replicas = at(kcp, 'spec', 'replicas');
      if (typeof replicas === 'number') {
        if (replicas <= 0)
          errs.push(fieldError.forbidden('spec.replicas', 'cannot be less than or equal to 0'));
        const external = at(
          kcp,
          'spec',
          'kubeadmConfigSpec',
          'clusterConfiguration',
          'etcd',
          'external',
        );
        if (external === undefined && replicas % 2 === 0)
          errs.push(
            fieldError.forbidden('spec.replicas', 'cannot be an even number when etcd is stacked'),
          );
      }
      errs.push(...versionErrors(at(kcp, 'spec', 'version'), 'spec.version'));
      errs.push(
        ...fileErrors(
          at(kcp, 'spec', 'kubeadmConfigSpec', 'files'),
          'spec.kubeadmConfigSpec.files',
        ),
      );
      return errs;
    },
  },
  {
    group: 'bootstrap.cluster.x-k8s.io',
    kind: 'KubeadmConfig',
    durations: KUBEADM_DURATIONS(['spec']),
    validate: (kc) => fileErrors(at(kc, 'spec', 'files'), 'spec.files'),
  },
  {
    group: 'bootstrap.cluster.x-k8s.io',
    kind: 'KubeadmConfigTemplate',
    durations: KUBEADM_DURATIONS(['spec', 'template', 'spec']),
    validate: (kct) =>
      fileErrors(at(kct, 'spec', 'template', 'spec', 'files'), 'spec.template.spec.files'),
  },
];

/** `KubeadmConfigSpec.validateFiles`: a file has `content` or `contentFrom`, not both. */
function fileErrors(files: unknown, path: string): FieldError[] {
  if (!Array.isArray(files)) return [];
  const errs: FieldError[] = [];
  files.forEach((f, i) => {
    if (
      at(f, 'content') !== undefined &&
      at(f, 'content') !== '' &&
      at(f, 'contentFrom') !== undefined
    )
      errs.push(
        fieldError.invalid(
          `${path}[${String(i)}]`,
          f,
          'only one of content or contentFrom may be specified for a single file',
        ),
      );
  });
  return errs;
}

function status(webhook: CapiWebhook, name: string, errors: FieldError[]): AdmissionResult {
  return {
    allowed: false,
    message: '',
    status: invalid({ group: webhook.group, kind: webhook.kind }, name, errors).toStatus(),
  };
}

/** The mutating (`default.*`) and validating (`validation.*`) hooks of each webhook. */
export function capiWebhookHooks(): AdmissionHook[] {
  return capiWebhooks.flatMap((w): AdmissionHook[] => {
    const singular = kindTable[w.kind].singular;
    const match = (): AdmissionHook['match'] => ({
      kinds: [{ group: w.group, kind: w.kind }],
      operations: ['CREATE', 'UPDATE'],
    });
    const hooks: AdmissionHook[] = [
      {
        name: `default.${singular}.${w.group}`,
        match: match(),
        versions: [CAPI_HUB_VERSION],
        mutate: (req: AdmissionRequest) => {
          const obj = req.object;
          if (!obj) return undefined;
          for (const path of w.durations) {
            const bad = badDuration(obj, path);
            if (bad) return { allowed: false, message: '', status: { code: 400, message: bad } };
          }
          w.default?.(obj, req.oldObject);
          return undefined;
        },
      },
    ];
    const validate = w.validate;
    if (validate)
      hooks.push({
        name: `validation.${singular}.${w.group}`,
        match: match(),
        versions: [CAPI_HUB_VERSION],
        validate: (req) => {
          if (!req.object) return { allowed: true };
          const errors = validate(req.object, req.oldObject);
          return errors.length ? status(w, req.name, errors) : { allowed: true };
        },
      });
    return hooks;
  });
}
