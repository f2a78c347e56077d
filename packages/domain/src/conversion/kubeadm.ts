import { boolIntent, restoredAt, setOrDelete, type ConversionContext } from './context';
import { conditionsOnlyDown, conditionsOnlyUp, type KindConversion } from './core';
import {
  cloneJson,
  isInertKey,
  dropIfEmpty,
  ensure,
  fromSeconds,
  isEmptyObject,
  isObject,
  obj,
  put,
  take,
  toSeconds,
  type Json,
  type JsonObject,
} from './json';

/**
 * `bootstrap.cluster.x-k8s.io`: KubeadmConfig and KubeadmConfigTemplate, and the
 * KubeadmConfigSpec that KubeadmControlPlane embeds, as upstream's
 * `api/bootstrap/kubeadm/v1beta1/conversion.go` converts them: extraArgs maps ⇄ lists of
 * `{name, value}` (`ConvertToArgs` sorts by name then value; `ConvertFromArgs` lets a later
 * duplicate win), bootstrap token `ttl` ⇄ `ttlSeconds`, v1beta1's `apiServer.timeoutForControlPlane`
 * and `discovery.timeout` ⇄ v1beta2's `initConfiguration/joinConfiguration.timeouts`, the `bool`
 * fields v1beta2 made `*bool` (whose `false` only the conversion data can bring back), and the
 * fields v1beta2 dropped (`clusterConfiguration.kubernetesVersion`, `clusterName`, `networking`,
 * the embedded `apiVersion`/`kind`, `useExperimentalRetryJoin`: pruned, lost as upstream loses
 * them).
 */

/** `ConvertToArgs`: a map → a list sorted by name, then value. */
function argsUp(value: Json | undefined): Json[] | undefined {
  if (!isObject(value)) return undefined;
  return Object.keys(value)
    .map((name) => ({ name, value: typeof value[name] === 'string' ? value[name] : '' }))
    .sort((a, b) => (a.name === b.name ? cmp(a.value, b.value) : cmp(a.name, b.name)));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `ConvertFromArgs`: a list → a map, a later duplicate taking precedence. */
function argsDown(value: Json | undefined): JsonObject | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: JsonObject = {};
  for (const arg of value) {
    if (!isObject(arg) || typeof arg.name !== 'string') continue;
    // `__proto__`, `constructor`, `prototype` are inert: dropped, as every clone drops them.
    if (isInertKey(arg.name)) continue;
    out[arg.name] = typeof arg.value === 'string' ? arg.value : '';
  }
  return out;
}

function mapArgs(
  o: JsonObject | undefined,
  key: string,
  f: (v: Json | undefined) => Json | undefined,
): void {
  if (o && key in o) setOrDelete(o, key, f(o[key]));
}

const COMPONENTS = ['apiServer', 'controllerManager', 'scheduler'] as const;

/** KubeadmConfigSpec, v1beta1 → v1beta2 (`restoredSpec`: the same spec in the conversion data). */
export function kubeadmSpecUp(
  spec: JsonObject,
  ctx: ConversionContext,
  restoredPath: readonly string[],
  path: string,
): void {
  const ok = ctx.restored !== undefined;
  const restored = (sub: readonly string[]) => restoredAt(ctx, [...restoredPath, ...sub]);
  const cc = obj(spec, 'clusterConfiguration');
  let timeoutForControlPlane: Json | undefined;
  if (cc) {
    for (const c of COMPONENTS) mapArgs(obj(cc, c), 'extraArgs', argsUp);
    mapArgs(obj(obj(cc, 'etcd'), 'local'), 'extraArgs', argsUp);
    timeoutForControlPlane = take(obj(cc, 'apiServer'), 'timeoutForControlPlane');
  }
  const init = obj(spec, 'initConfiguration');
  const join = obj(spec, 'joinConfiguration');
  for (const [conf, name] of [
    [init, 'initConfiguration'],
    [join, 'joinConfiguration'],
  ] as const) {
    mapArgs(obj(conf, 'nodeRegistration'), 'kubeletExtraArgs', argsUp);
    const tokens = conf?.bootstrapTokens;
    if (Array.isArray(tokens)) {
      tokens.forEach((t, i) => {
        if (!isObject(t)) return;
        put(
          t,
          'ttlSeconds',
          toSeconds(take(t, 'ttl'), `${path}.${name}.bootstrapTokens[${String(i)}].ttl`),
        );
      });
    }
  }
  const discoveryTimeout = take(obj(join, 'discovery'), 'timeout');
  // v1beta2's structs are omitzero: what only held the moved timeouts is left out.
  dropIfEmpty(join, 'discovery');
  dropIfEmpty(cc, 'apiServer');
  dropIfEmpty(spec, 'clusterConfiguration');

  // RestoreBoolIntentKubeadmConfigSpec.
  const discovery = obj(join, 'discovery');
  const token = obj(discovery, 'bootstrapToken');
  if (token) {
    setOrDelete(
      token,
      'unsafeSkipCAVerification',
      boolIntent(
        token.unsafeSkipCAVerification,
        ok,
        restored(['joinConfiguration', 'discovery', 'bootstrapToken', 'unsafeSkipCAVerification']),
      ),
    );
  }
  const kubeConfig = obj(obj(discovery, 'file'), 'kubeConfig');
  const kcCluster = obj(kubeConfig, 'cluster');
  if (kcCluster) {
    setOrDelete(
      kcCluster,
      'insecureSkipTLSVerify',
      boolIntent(
        kcCluster.insecureSkipTLSVerify,
        ok,
        restored([
          'joinConfiguration',
          'discovery',
          'file',
          'kubeConfig',
          'cluster',
          'insecureSkipTLSVerify',
        ]),
      ),
    );
  }
  const exec = obj(obj(kubeConfig, 'user'), 'exec');
  if (exec) {
    setOrDelete(
      exec,
      'provideClusterInfo',
      boolIntent(
        exec.provideClusterInfo,
        ok,
        restored([
          'joinConfiguration',
          'discovery',
          'file',
          'kubeConfig',
          'user',
          'exec',
          'provideClusterInfo',
        ]),
      ),
    );
  }
  for (const c of COMPONENTS) {
    const volumes = obj(cc, c)?.extraVolumes;
    if (!Array.isArray(volumes)) continue;
    const before = restored(['clusterConfiguration', c, 'extraVolumes']);
    for (const v of volumes) {
      if (!isObject(v)) continue;
      const match = findBy(before, 'hostPath', v.hostPath);
      setOrDelete(v, 'readOnly', boolIntent(v.readOnly, ok, match?.readOnly));
    }
  }
  const files = spec.files;
  if (Array.isArray(files)) {
    const before = restored(['files']);
    for (const f of files) {
      if (!isObject(f)) continue;
      setOrDelete(f, 'append', boolIntent(f.append, ok, findBy(before, 'path', f.path)?.append));
    }
  }
  const clc = obj(obj(spec, 'ignition'), 'containerLinuxConfig');
  if (clc) {
    setOrDelete(
      clc,
      'strict',
      boolIntent(clc.strict, ok, restored(['ignition', 'containerLinuxConfig', 'strict'])),
    );
  }

  // RestoreKubeadmConfigSpec: the timeouts v1beta1 has no field for come back from the data.
  if (ok) {
    for (const name of ['initConfiguration', 'joinConfiguration']) {
      const t = restored([name, 'timeouts']);
      if (isObject(t) && !isEmptyObject(t)) ensure(spec, name).timeouts = cloneJson(t) ?? null;
    }
  }

  // KubeadmConfigSpec.ConvertTo: the v1beta1 fields override what was restored.
  let initCp: number | undefined;
  if (timeoutForControlPlane !== undefined) {
    initCp = toSeconds(
      timeoutForControlPlane,
      `${path}.clusterConfiguration.apiServer.timeoutForControlPlane`,
    );
    setOrDelete(
      ensure(ensure(spec, 'initConfiguration'), 'timeouts'),
      'controlPlaneComponentHealthCheckSeconds',
      initCp,
    );
  }
  if (discoveryTimeout !== undefined || initCp !== undefined) {
    const timeouts = ensure(ensure(spec, 'joinConfiguration'), 'timeouts');
    setOrDelete(timeouts, 'controlPlaneComponentHealthCheckSeconds', initCp);
    if (discoveryTimeout !== undefined) {
      setOrDelete(
        timeouts,
        'tlsBootstrapSeconds',
        toSeconds(discoveryTimeout, `${path}.joinConfiguration.discovery.timeout`),
      );
    }
  }
  for (const name of ['initConfiguration', 'joinConfiguration']) {
    dropIfEmpty(obj(spec, name), 'timeouts');
  }
}

function findBy(
  list: Json | undefined,
  key: string,
  value: Json | undefined,
): JsonObject | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list) if (isObject(item) && item[key] === value) return item;
  return undefined;
}

/** KubeadmConfigSpec, v1beta2 → v1beta1. */
export function kubeadmSpecDown(spec: JsonObject, path: string): void {
  const cc = obj(spec, 'clusterConfiguration');
  for (const c of COMPONENTS) mapArgs(obj(cc, c), 'extraArgs', argsDown);
  mapArgs(obj(obj(cc, 'etcd'), 'local'), 'extraArgs', argsDown);
  dropIfEmpty(spec, 'clusterConfiguration');
  const timeouts: Record<string, JsonObject | undefined> = {};
  for (const name of ['initConfiguration', 'joinConfiguration'] as const) {
    const conf = obj(spec, name);
    mapArgs(obj(conf, 'nodeRegistration'), 'kubeletExtraArgs', argsDown);
    const tokens = conf?.bootstrapTokens;
    if (Array.isArray(tokens)) {
      tokens.forEach((t, i) => {
        if (!isObject(t)) return;
        put(
          t,
          'ttl',
          fromSeconds(
            take(t, 'ttlSeconds'),
            `${path}.${name}.bootstrapTokens[${String(i)}].ttlSeconds`,
          ),
        );
      });
    }
    timeouts[name] = obj(conf, 'timeouts');
    if (conf) delete conf.timeouts;
    const discovery = obj(conf, 'discovery');
    if (discovery) {
      dropIfEmpty(discovery, 'bootstrapToken');
      dropIfEmpty(discovery, 'file');
    }
  }
  // KubeadmConfigSpec.ConvertFrom: the two timeouts v1beta1 has, where it has them.
  const cp = timeouts.initConfiguration?.controlPlaneComponentHealthCheckSeconds;
  if (cp !== undefined && cp !== null) {
    ensure(ensure(spec, 'clusterConfiguration'), 'apiServer').timeoutForControlPlane =
      fromSeconds(
        cp,
        `${path}.initConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds`,
      ) ?? null;
  }
  const tls = timeouts.joinConfiguration?.tlsBootstrapSeconds;
  if (tls !== undefined && tls !== null) {
    ensure(ensure(spec, 'joinConfiguration'), 'discovery').timeout =
      fromSeconds(tls, `${path}.joinConfiguration.timeouts.tlsBootstrapSeconds`) ?? null;
  }
  dropIfEmpty(spec, 'initConfiguration');
  dropIfEmpty(spec, 'joinConfiguration');
  for (const key of ['diskSetup', 'ntp', 'ignition']) dropIfEmpty(spec, key);
  // dropEmptyStringsKubeadmConfigSpec: v1beta1 has *string where v1beta2 has omitempty strings.
  const users = spec.users;
  if (Array.isArray(users)) {
    for (const u of users) {
      if (!isObject(u)) continue;
      for (const k of ['gecos', 'groups', 'homeDir', 'shell', 'passwd', 'primaryGroup', 'sudo']) {
        if (u[k] === '') Reflect.deleteProperty(u, k);
      }
    }
  }
  const disk = obj(spec, 'diskSetup');
  for (const p of Array.isArray(disk?.partitions) ? disk.partitions : []) {
    if (isObject(p) && p.tableType === '') delete p.tableType;
  }
  for (const f of Array.isArray(disk?.filesystems) ? disk.filesystems : []) {
    if (!isObject(f)) continue;
    if (f.partition === '') delete f.partition;
    if (f.replaceFS === '') delete f.replaceFS;
  }
}

const FAILURE = ['failureReason', 'failureMessage'];

const kubeadmConfig: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const spec = obj(o, 'spec');
    if (spec) kubeadmSpecUp(spec, ctx, ['spec'], 'spec');
    const status = obj(o, 'status') ?? ensure(o, 'status');
    const ready = take(status, 'ready');
    const created = boolIntent(
      ready,
      ctx.restored !== undefined,
      restoredAt(ctx, ['status', 'initialization', 'dataSecretCreated']),
    );
    if (created !== undefined) status.initialization = { dataSecretCreated: created };
    conditionsOnlyUp(status, FAILURE, true);
  },
  down(o) {
    const spec = obj(o, 'spec');
    if (spec) kubeadmSpecDown(spec, 'spec');
    const status = obj(o, 'status') ?? ensure(o, 'status');
    const initialization = obj(status, 'initialization');
    delete status.initialization;
    conditionsOnlyDown(status, FAILURE);
    status.ready = initialization?.dataSecretCreated === true;
    if (status.dataSecretName === '') delete status.dataSecretName;
  },
};

const kubeadmConfigTemplate: KindConversion = {
  marshalsData: true,
  up(o, ctx) {
    const spec = obj(obj(obj(o, 'spec'), 'template'), 'spec');
    if (spec) kubeadmSpecUp(spec, ctx, ['spec', 'template', 'spec'], 'spec.template.spec');
  },
  down(o) {
    const spec = obj(obj(obj(o, 'spec'), 'template'), 'spec');
    if (spec) kubeadmSpecDown(spec, 'spec.template.spec');
  },
};

export const BOOTSTRAP_CONVERSIONS: Readonly<Record<string, KindConversion>> = {
  KubeadmConfig: kubeadmConfig,
  KubeadmConfigTemplate: kubeadmConfigTemplate,
};
