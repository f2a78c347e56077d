import { KUBELET_PATCH_PATH } from '../labels';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import { normalizeKubeVersion, parseKubeVersion } from '../versions';
import type { ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { error, warning } from './make';
import { isDns1123Subdomain, visible } from './net';
import { joinPath } from './util';

/** The kubelet setting of R-BOOT-1 and the value it must have from Kubernetes 1.35 on. */
export const IMAGE_PULL_POLICY_FIELD = 'imagePullCredentialsVerificationPolicy';
export const IMAGE_PULL_POLICY_VALUE = 'NeverVerify';
/** Where kubeadm looks for the patch file (the template's joinConfiguration.patches.directory). */
export const KUBELET_PATCHES_DIRECTORY = '/etc/kubernetes/patches';

/** The provider's magic tokens (R-BOOT-2) and the kubelet flags that carry them. */
export const MAGIC_TOKENS = [
  { arg: 'provider-id', token: 'PROVIDER_ID' },
  { arg: 'node-ip', token: 'NODE_IP' },
] as const;

/**
 * A bootstrap template body: the kubelet patch for the version (R-BOOT-1) and the provider's
 * magic tokens (R-BOOT-2), compared with `base` (the template it was copied from) when given.
 */
export function validateBootstrapSpec(
  spec: KubeadmConfigSpec,
  version: string | undefined,
  ctx: ValidationContext,
  basePath: string,
  base?: KubeadmConfigSpec,
): RuleIssue[] {
  return [
    ...checkFileSources(spec, basePath),
    ...(version === undefined ? [] : checkKubeletPatch(spec, version, ctx, basePath)),
    ...checkMagicTokens(spec, basePath, base),
  ];
}

const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * A file whose content comes from a Secret names a Secret (a DNS-1123 subdomain) and a key that
 * can exist (`../etc` is an error, not a Secret that merely was not found).
 */
export function checkFileSources(spec: KubeadmConfigSpec, basePath: string): RuleIssue[] {
  const out: RuleIssue[] = [];
  (spec.files ?? []).forEach((file, i) => {
    const secret = file.contentFrom?.secret;
    if (!secret) return;
    const path = joinPath(basePath, 'files', i, 'contentFrom.secret');
    if (!isDns1123Subdomain(secret.name)) {
      out.push(
        error('R-REQUEST', joinPath(path, 'name'), 'boot.secretNameInvalid', {
          path: file.path,
          name: visible(secret.name),
        }),
      );
    }
    if (!SECRET_KEY.test(secret.key) || secret.key === '.' || secret.key === '..') {
      out.push(
        error('R-REQUEST', joinPath(path, 'key'), 'boot.secretKeyInvalid', {
          path: file.path,
          name: secret.name,
          key: visible(secret.key),
        }),
      );
    }
  });
  return out;
}

/** Kubernetes 1.35 and later need NeverVerify; earlier versions do not know the field. */
export function needsNeverVerify(version: string): boolean | undefined {
  const v = parseKubeVersion(version);
  return v ? v.major > 1 || (v.major === 1 && v.minor >= 35) : undefined;
}

/**
 * The patch's imagePullCredentialsVerificationPolicy: its value, `null` when the field is there
 * with a non-string value, undefined when absent. JSON first (the file is a strategic-merge JSON
 * patch); a regular expression for a patch that is not valid JSON (kubeadm also reads YAML).
 */
export function imagePullPolicyOf(content: string): string | null | undefined {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      if (!(IMAGE_PULL_POLICY_FIELD in parsed)) return undefined;
      const value = (parsed as Record<string, unknown>)[IMAGE_PULL_POLICY_FIELD];
      return typeof value === 'string' ? value : null;
    }
  } catch {
    // Not JSON: fall through to the textual check.
  }
  const m = /["']?imagePullCredentialsVerificationPolicy["']?\s*:\s*["']?([A-Za-z]*)/.exec(content);
  if (!m) return undefined;
  const value = m[1] ?? '';
  return value === '' ? null : value;
}

/**
 * R-BOOT-1: with Kubernetes ≥ 1.35 the kubelet patch contains
 * `"imagePullCredentialsVerificationPolicy": "NeverVerify"`; with ≤ 1.34 it must not contain the
 * field at all (the kubelet of those versions rejects an unknown field). This holds for inline
 * `content` and for `contentFrom.secret`, whose key is looked up in the context; an unreadable
 * secret is a warning that says what to check by hand.
 */
export function checkKubeletPatch(
  spec: KubeadmConfigSpec,
  version: string,
  ctx: ValidationContext,
  basePath: string,
): RuleIssue[] {
  const needs = needsNeverVerify(version);
  if (needs === undefined) return [];
  const v = normalizeKubeVersion(version);
  const files = (spec.files ?? []).flatMap((file, index) =>
    file.path === KUBELET_PATCH_PATH ? [{ file, index }] : [],
  );
  const filesPath = joinPath(basePath, 'files');
  if (files.length === 0) {
    return needs
      ? [
          error('R-BOOT-1', filesPath, 'boot.patchMissing', {
            path: KUBELET_PATCH_PATH,
            version: v,
          }),
        ]
      : [];
  }
  const out: RuleIssue[] = [];
  for (const { file, index } of files) {
    const filePath = joinPath(filesPath, index);
    let content: string | undefined;
    let contentPath: string;
    if (file.content !== undefined) {
      content = file.content;
      contentPath = joinPath(filePath, 'content');
    } else if (file.contentFrom) {
      const { name, key } = file.contentFrom.secret;
      // A name no Secret can have is checkFileSources' error, not an unknown Secret.
      if (!isDns1123Subdomain(name)) continue;
      contentPath = joinPath(filePath, 'contentFrom.secret');
      content = ctx.bootstrapSecrets.find((s) => s.name === name)?.data[key];
      if (content === undefined) {
        out.push(
          warning(
            'R-BOOT-1',
            contentPath,
            needs ? 'boot.patchSecretUnknownNeeds' : 'boot.patchSecretUnknownForbids',
            {
              secret: name,
              key,
              version: v,
            },
          ),
        );
        continue;
      }
    } else {
      if (needs)
        out.push(
          error('R-BOOT-1', filePath, 'boot.patchEmpty', { path: KUBELET_PATCH_PATH, version: v }),
        );
      continue;
    }
    const policy = imagePullPolicyOf(content);
    if (needs && policy !== IMAGE_PULL_POLICY_VALUE) {
      out.push(
        error(
          'R-BOOT-1',
          contentPath,
          policy === undefined ? 'boot.neverVerifyMissing' : 'boot.neverVerifyWrongValue',
          {
            version: v,
            value: policy ?? '',
          },
        ),
      );
    } else if (!needs && policy !== undefined) {
      out.push(error('R-BOOT-1', contentPath, 'boot.neverVerifyForbidden', { version: v }));
    }
  }
  const directory = spec.joinConfiguration?.patches?.directory;
  if (needs && directory !== KUBELET_PATCHES_DIRECTORY) {
    out.push(
      error(
        'R-BOOT-1',
        joinPath(basePath, 'joinConfiguration.patches.directory'),
        'boot.patchesDirectory',
        {
          directory: KUBELET_PATCHES_DIRECTORY,
          value: directory ?? '',
        },
      ),
    );
  }
  return out;
}

/** Every string leaf of a value with its dotted path. */
function stringLeaves(value: unknown, path: string, out: { path: string; value: string }[] = []) {
  if (typeof value === 'string') out.push({ path, value });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, joinPath(path, i), out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) stringLeaves(v, joinPath(path, k), out);
  }
  return out;
}

const occurrences = (s: string, token: string) => s.split(token).length - 1;

/**
 * R-BOOT-2: PROVIDER_ID and NODE_IP are literal tokens that the provider replaces at join time.
 * The kubelet's provider-id and node-ip flags hold exactly the tokens (a missing one is a
 * warning: the node would not be matched to its machine); compared with `base`, every token the
 * base carries anywhere is still there verbatim.
 */
export function checkMagicTokens(
  spec: KubeadmConfigSpec,
  basePath: string,
  base?: KubeadmConfigSpec,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const argsPath = joinPath(basePath, 'joinConfiguration.nodeRegistration.kubeletExtraArgs');
  const args = spec.joinConfiguration?.nodeRegistration?.kubeletExtraArgs ?? {};
  const baseArgs = base?.joinConfiguration?.nodeRegistration?.kubeletExtraArgs ?? {};
  const flagged = new Set<string>();
  for (const { arg, token } of MAGIC_TOKENS) {
    const value = args[arg];
    if (value === undefined) {
      flagged.add(token);
      out.push(
        baseArgs[arg] !== undefined
          ? error('R-BOOT-2', argsPath, 'boot.tokenArgRemoved', { arg, token })
          : warning('R-BOOT-2', argsPath, 'boot.tokenArgMissing', { arg, token }),
      );
    } else if (value !== token) {
      flagged.add(token);
      out.push(
        error('R-BOOT-2', joinPath(argsPath, arg), 'boot.tokenAltered', { arg, token, value }),
      );
    }
  }
  if (!base) return out;
  const baseLeaves = stringLeaves(base, basePath);
  const newLeaves = stringLeaves(spec, basePath);
  const newByPath = new Map(newLeaves.map((l) => [l.path, l.value]));
  for (const { token } of MAGIC_TOKENS) {
    if (flagged.has(token)) continue;
    const total = (leaves: typeof baseLeaves) =>
      leaves.reduce((n, l) => n + occurrences(l.value, token), 0);
    if (total(newLeaves) >= total(baseLeaves)) continue;
    // The token was edited somewhere: point at the first place that lost it.
    const lost = baseLeaves.find(
      (l) => occurrences(l.value, token) > occurrences(newByPath.get(l.path) ?? '', token),
    );
    out.push(error('R-BOOT-2', lost?.path ?? basePath, 'boot.tokenEdited', { token }));
  }
  return out;
}

/**
 * R-BOOT-3: editing a bootstrap template in place does not roll existing machines; only new
 * machines use it. A warning whenever a template some pool uses is edited in place.
 */
export function checkBootstrapInPlaceEdit(
  templateName: string,
  usedBy: readonly string[],
  path = '',
): RuleIssue[] {
  return usedBy.length === 0
    ? []
    : [
        warning('R-BOOT-3', path, 'boot.inPlaceEdit', {
          name: templateName,
          pools: usedBy.join(', '),
        }),
      ];
}

/** R-BOOT-3: to roll, clone under a new name: the name must be free. */
export function checkNewBootstrapName(
  name: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  return ctx.namesInUse.bootstrapTemplates.includes(name)
    ? [error('R-BOOT-3', path, 'boot.nameInUse', { name, namespace: ctx.namespace })]
    : [];
}
