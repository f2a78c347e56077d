import {
  compareKubeVersions,
  kubeadmConfigForVersion,
  nameForVersion,
  nextRevisionName,
  upgradeOffer,
  vmTemplateFor,
  type KubeadmConfigSpec,
  type MachineTemplateSpecInput,
  type NodePoolView,
  type UpgradeOffer,
  type UpgradePool,
  type ValidationContext,
} from '@dcs/domain';

/** What forms of the upgrade dialog start from: the pool's templates as the context knows them. */

export function templateInputOf(
  ctx: ValidationContext,
  name: string,
): MachineTemplateSpecInput | undefined {
  const spec = ctx.machineTemplates.find((t) => t.name === name)?.spec;
  if (!spec) return undefined;
  const { ipHostPoolRef: _ref, providerID: _id, ...input } = spec;
  return structuredClone(input);
}

export function bootstrapSpecOf(
  ctx: ValidationContext,
  name: string | undefined,
): KubeadmConfigSpec | undefined {
  const spec = ctx.bootstrapTemplates.find((t) => t.name === name)?.spec;
  return spec && structuredClone(spec);
}

export const takenTemplateNames = (ctx: ValidationContext) => [
  ...ctx.namesInUse.machineTemplates,
  ...ctx.machineTemplates.map((t) => t.name),
];
export const takenBootstrapNames = (ctx: ValidationContext) => [
  ...ctx.namesInUse.bootstrapTemplates,
  ...ctx.bootstrapTemplates.map((t) => t.name),
];

/** The next revision's name; for a version upgrade, named after that version (R-MD-5). */
export const newTemplateName = (ctx: ValidationContext, current: string, version?: string) =>
  version
    ? nameForVersion(current, version, takenTemplateNames(ctx))
    : nextRevisionName(current, takenTemplateNames(ctx));
export const newBootstrapName = (ctx: ValidationContext, current: string, version?: string) =>
  version
    ? nameForVersion(current, version, takenBootstrapNames(ctx))
    : nextRevisionName(current, takenBootstrapNames(ctx));

/** The pool as validateUpgrade sees it. */
export function upgradePoolOf(pool: NodePoolView): UpgradePool {
  return {
    name: pool.id,
    version: pool.version,
    machineTemplateName: pool.machineTemplate.name,
    bootstrapTemplateName: pool.bootstrapTemplate,
    ipPoolName: pool.ipPool?.name,
    replicas: pool.replicas.desired,
    maxSurge: pool.strategy.maxSurge,
    maxUnavailable: pool.strategy.maxUnavailable,
  };
}

/**
 * Catalog versions newer than the pool's, or why there are none; for workers, not above the
 * control plane (R-MD-4), as the card's indicator decides it.
 */
export function upgradeOfferFor(ctx: ValidationContext, pool: NodePoolView): UpgradeOffer {
  return pool.kind === 'control-plane'
    ? upgradeOffer(pool.version, ctx.versions)
    : upgradeOffer(pool.version, ctx.versions, { version: ctx.controlPlaneVersion });
}

/** The machine template for `version`: the current one on the catalog's VM template (R-MD-4). */
export function templateForVersion(
  ctx: ValidationContext,
  base: MachineTemplateSpecInput,
  version: string,
): MachineTemplateSpecInput {
  const vm = vmTemplateFor(version, ctx);
  return vm ? { ...base, vmTemplateName: vm } : base;
}

/**
 * A bootstrap spec for `version` (R-BOOT-1), as domain makes it (the same as the control plane's
 * upgrade): the kubelet patch's setting for that version, other settings kept; a patch from a
 * Secret points at the catalog's files Secret for that version when it names one.
 */
export function bootstrapForVersion(
  ctx: ValidationContext,
  base: KubeadmConfigSpec,
  version: string,
): KubeadmConfigSpec {
  const secret = ctx.versions.find(
    (v) => compareKubeVersions(v.version, version) === 0,
  )?.bootstrapFilesSecret;
  return kubeadmConfigForVersion(base, version, secret);
}
