import {
  compareKubeVersions,
  createPoolDefaults,
  type CreatePoolRequestInput,
  type ValidationContext,
} from '@dcs/domain';

export { offeredVersions, vmTemplateOf } from '@dcs/domain';

export const filesSecretOf = (ctx: ValidationContext, version: string) =>
  ctx.versions.find((v) => compareKubeVersions(v.version, version) === 0)?.bootstrapFilesSecret;

/**
 * The form's start: domain's `createPoolDefaults` (the target cluster's most common pool layout,
 * or the documents' defaults; never another cluster's template), one decision for every client.
 */
export function defaultValues(ctx: ValidationContext): CreatePoolRequestInput {
  return createPoolDefaults(ctx);
}

export { parseIntOrString } from '../../../lib/int-or-string';
