import type { MachineTemplateSpecInput } from '../requests';
import type { ValidationContext } from './context';
import { checkCpaasPlacement, checkTemplateCpaas, type PathedEntry } from './disk';
import type { RuleIssue } from './issue';
import { error, warning } from './make';
import { checkVmTemplateCarriesVersion } from './md';
import { checkPortGroupInSwitch } from './pool';
import { dcsNameProblem, visible } from './net';
import { diffLeafPaths, joinPath, laterDuplicates, normalizeMountPath } from './util';

/** Mounts every worker template carries (R-TPL-2); /var/cpaas is R-DISK-5's. */
export const REQUIRED_TEMPLATE_MOUNTS = ['/var/lib/kubelet', '/var/lib/containerd'] as const;

export interface MachineTemplateOptions {
  /** The Kubernetes version the machines will run: the VM template must carry it (R-MD-4). */
  version?: string | undefined;
  /**
   * The entries of the IP pool the template will use, each with the path where the user can fix
   * it: /var/cpaas must be mounted once, by the template or by every entry (R-DISK-5, R-TPL-2).
   */
  poolEntries?: readonly PathedEntry[] | undefined;
  /** The template this one replaces: a copy without change rolls for nothing (R-TPL-4). */
  base?: MachineTemplateSpecInput | undefined;
}

/**
 * Every check of a DCSMachineTemplate body: disks (R-TPL-1, R-TPL-2), placement and network
 * (R-TPL-3), /var/cpaas (R-DISK-5), and with options the version it carries (R-MD-4), the pool's
 * persistent disks (R-DISK-5) and the template it replaces (R-TPL-4).
 */
export function validateMachineTemplateSpec(
  spec: MachineTemplateSpecInput,
  ctx: ValidationContext,
  basePath: string,
  opts: MachineTemplateOptions = {},
): RuleIssue[] {
  return [
    ...checkTemplateFields(spec, ctx, basePath),
    ...checkSystemDisk(spec, basePath),
    ...checkTemplateMounts(spec, basePath),
    ...checkTemplateCpaas(spec, ctx, basePath),
    ...(opts.version === undefined
      ? []
      : checkVmTemplateCarriesVersion(
          opts.version,
          spec.vmTemplateName,
          ctx,
          joinPath(basePath, 'vmTemplateName'),
        )),
    ...(opts.poolEntries ? checkCpaasPlacement(spec, opts.poolEntries, ctx, basePath) : []),
    ...(opts.base ? checkTemplateChanged(opts.base, spec, basePath) : []),
  ];
}

const blank = (s: string | undefined) => s === undefined || s.trim() === '';

/**
 * R-TPL-3: the VM template is named; `location.type` is only `folder`, `resource.type` is
 * `cluster` or `host`, and when location or resource is present its type and name are required;
 * the port group belongs to the switch. CPU and memory, when given, are positive (this project
 * files the sizing fields under R-TPL-3 too: DOMAIN.md gives them no rule of their own).
 */
export function checkTemplateFields(
  spec: MachineTemplateSpecInput,
  ctx: ValidationContext,
  basePath: string,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  if (blank(spec.vmTemplateName)) {
    out.push(error('R-TPL-3', joinPath(basePath, 'vmTemplateName'), 'tpl.vmTemplateRequired'));
  }
  const placement = [
    { field: 'location', value: spec.location, types: ['folder'] },
    { field: 'resource', value: spec.resource, types: ['cluster', 'host'] },
  ] as const;
  for (const { field, value, types } of placement) {
    if (value === undefined) continue;
    const typePath = joinPath(basePath, field, 'type');
    if (blank(value.type)) {
      out.push(
        error('R-TPL-3', typePath, 'tpl.placementTypeRequired', {
          field,
          allowed: types.join(', '),
        }),
      );
    } else if (!(types as readonly string[]).includes(value.type ?? '')) {
      out.push(
        error('R-TPL-3', typePath, 'tpl.placementTypeInvalid', {
          field,
          value: value.type ?? '',
          allowed: types.join(', '),
        }),
      );
    }
    if (blank(value.name)) {
      out.push(
        error('R-TPL-3', joinPath(basePath, field, 'name'), 'tpl.placementNameRequired', { field }),
      );
    }
  }
  // Every name DCS resolves: present means a usable name ("" or ".." is not "unset").
  const named: [string, string | undefined][] = [
    ['vmTemplateName', blank(spec.vmTemplateName) ? undefined : spec.vmTemplateName],
    ['location.name', spec.location?.name],
    ['resource.name', spec.resource?.name],
    ['vmConfig.dvSwitchName', spec.vmConfig?.dvSwitchName],
    ['vmConfig.portGroupName', spec.vmConfig?.portGroupName],
    ...(spec.vmConfig?.dcsMachineDiskSpec ?? []).map((d, i): [string, string | undefined] => [
      `vmConfig.dcsMachineDiskSpec.${i}.datastoreClusterName`,
      d.datastoreClusterName,
    ]),
  ];
  for (const [field, value] of named) {
    // An empty placement name is tpl.placementNameRequired's.
    if (value === undefined || (value.trim() === '' && field.endsWith('.name'))) continue;
    if (dcsNameProblem(value)) {
      out.push(
        error('R-TPL-3', joinPath(basePath, field), 'dcs.nameInvalid', {
          field:
            field
              .split('.')
              .filter((f) => !/^\d+$/.test(f))
              .at(-1) ?? field,
          value: visible(value),
        }),
      );
    }
  }
  const vm = spec.vmConfig;
  if (vm) {
    const vmPath = joinPath(basePath, 'vmConfig');
    if (!blank(vm.portGroupName)) {
      if (blank(vm.dvSwitchName)) {
        out.push(
          warning('R-TPL-3', joinPath(vmPath, 'dvSwitchName'), 'tpl.portGroupWithoutSwitch', {
            portGroup: vm.portGroupName ?? '',
          }),
        );
      } else {
        out.push(
          ...checkPortGroupInSwitch(
            vm.dvSwitchName ?? '',
            vm.portGroupName ?? '',
            ctx,
            'R-TPL-3',
            joinPath(vmPath, 'portGroupName'),
          ),
        );
      }
    }
    const cpu = vm.dcsMachineCpuSpec?.quantity;
    if (cpu !== undefined && cpu < 1) {
      out.push(
        error('R-TPL-3', joinPath(vmPath, 'dcsMachineCpuSpec.quantity'), 'tpl.cpuInvalid', {
          value: cpu,
        }),
      );
    }
    const memory = vm.dcsMachineMemorySpec?.quantity;
    if (memory !== undefined && memory < 1) {
      out.push(
        error('R-TPL-3', joinPath(vmPath, 'dcsMachineMemorySpec.quantity'), 'tpl.memoryInvalid', {
          value: memory,
        }),
      );
    }
  }
  return out;
}

/**
 * R-TPL-1: exactly one disk has `systemVolume: true`; quantity 0 means the VM template's size,
 * which only the system disk has, so every other disk needs a size.
 */
export function checkSystemDisk(spec: MachineTemplateSpecInput, basePath: string): RuleIssue[] {
  const out: RuleIssue[] = [];
  const disksPath = joinPath(basePath, 'vmConfig.dcsMachineDiskSpec');
  const disks = spec.vmConfig?.dcsMachineDiskSpec ?? [];
  const system = disks.flatMap((d, i) => (d.systemVolume === true ? [i] : []));
  if (system.length === 0) out.push(error('R-TPL-1', disksPath, 'tpl.systemDiskMissing'));
  for (const i of system.slice(1)) {
    out.push(
      error('R-TPL-1', joinPath(disksPath, i, 'systemVolume'), 'tpl.systemDiskMultiple', {
        count: system.length,
      }),
    );
  }
  disks.forEach((d, i) => {
    const path = joinPath(disksPath, i, 'quantity');
    if (d.quantity < 0) {
      out.push(error('R-TPL-1', path, 'tpl.diskQuantityInvalid', { value: d.quantity }));
    } else if (d.quantity === 0 && d.systemVolume !== true) {
      out.push(error('R-TPL-1', path, 'tpl.dataDiskQuantityZero'));
    }
  });
  return out;
}

/**
 * R-TPL-2: /var/lib/kubelet and /var/lib/containerd are mounted; mount paths are absolute and
 * unique; extra disks may be added.
 */
export function checkTemplateMounts(spec: MachineTemplateSpecInput, basePath: string): RuleIssue[] {
  const out: RuleIssue[] = [];
  const disksPath = joinPath(basePath, 'vmConfig.dcsMachineDiskSpec');
  const disks = spec.vmConfig?.dcsMachineDiskSpec ?? [];
  const mounts = disks.map((d) =>
    d.systemVolume === true || d.path === undefined || d.path.trim() === ''
      ? undefined
      : normalizeMountPath(d.path),
  );
  disks.forEach((d, i) => {
    if (mounts[i] !== undefined && !d.path?.startsWith('/')) {
      out.push(
        error('R-TPL-2', joinPath(disksPath, i, 'path'), 'tpl.mountPathInvalid', {
          value: d.path ?? '',
        }),
      );
    }
  });
  for (const required of REQUIRED_TEMPLATE_MOUNTS) {
    if (!mounts.includes(required)) {
      out.push(error('R-TPL-2', disksPath, 'tpl.mountRequired', { path: required }));
    }
  }
  for (const dup of laterDuplicates(mounts, (m) => m)) {
    out.push(
      error('R-TPL-2', joinPath(disksPath, dup.index, 'path'), 'tpl.mountDuplicate', {
        path: dup.key,
      }),
    );
  }
  return out;
}

/**
 * R-TPL-4: a new template that is a copy of the one it replaces changes nothing but still rolls
 * every machine (the MachineDeployment's infrastructureRef changes).
 */
export function checkTemplateChanged(
  base: MachineTemplateSpecInput,
  spec: MachineTemplateSpecInput,
  basePath: string,
): RuleIssue[] {
  return diffLeafPaths(base, spec).length === 0
    ? [warning('R-TPL-4', basePath, 'tpl.unchanged')]
    : [];
}

/**
 * R-TPL-4: templates are immutable; a change is a new template under a name not yet taken.
 */
export function checkNewTemplateName(
  name: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  return ctx.namesInUse.machineTemplates.includes(name)
    ? [error('R-TPL-4', path, 'tpl.nameInUse', { name, namespace: ctx.namespace })]
    : [];
}

/**
 * R-TPL-4 for the API server's admission: a DCSMachineTemplate's spec never changes once created.
 * Reports each changed leaf under `spec`.
 */
export function checkTemplateSpecImmutable(
  oldSpec: unknown,
  newSpec: unknown,
  basePath = 'spec',
): RuleIssue[] {
  return diffLeafPaths(oldSpec, newSpec, basePath).map((path) =>
    error('R-TPL-4', path, 'tpl.specImmutable', { field: path }),
  );
}
