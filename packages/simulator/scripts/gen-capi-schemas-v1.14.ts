import { writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  readReferenceTextsV114,
  referenceDirV114,
  referenceSourceV114,
  renderFieldTreesModuleV114,
  renderSchemasModuleV114,
  versionedSchemasFromTexts,
} from '../src/capi/reference-v1-14';

/**
 * `pnpm --filter @dcs/simulator gen:capi-schemas-v1.14 [DIR]`: rewrites
 * `src/generated/capi-schemas-v1.14.ts` (both versions of each kind, CEL rules kept) and
 * `packages/domain/src/generated/capi-fields-v1.14.ts` (their field trees, which the domain's
 * conversion prunes by) from the v1.14.0 reference CRDs in DIR (default:
 * $CAPI_REFERENCE_CRDS_V1_14, else shared/reference/capi-crds-v1.14 beside the repository or a
 * parent). The v1.10 generator (`gen:capi-schemas`) and its output are untouched.
 */
const args = process.argv.slice(2).filter((a) => a !== '--');
if (args.length > 1) {
  process.stderr.write(
    `gen:capi-schemas-v1.14: usage: gen:capi-schemas-v1.14 [DIR], got ${args.join(' ')}\n`,
  );
  process.exit(2);
}
const dir = args[0] ?? referenceDirV114();
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ dir })}\n`);
  process.exit(0);
}
const texts = readReferenceTextsV114(dir);
if (!texts?.length) {
  process.stderr.write(`gen:capi-schemas-v1.14: no CRD files (*.yaml) in ${dir}\n`);
  process.exit(2);
}
const schemas = versionedSchemasFromTexts(texts);
const source = referenceSourceV114(dir);
const out = join(import.meta.dirname, '..', 'src', 'generated', 'capi-schemas-v1.14.ts');
writeFileSync(out, renderSchemasModuleV114(schemas, source));
const domainOut = join(
  import.meta.dirname,
  '..',
  '..',
  'domain',
  'src',
  'generated',
  'capi-fields-v1.14.ts',
);
writeFileSync(domainOut, renderFieldTreesModuleV114(schemas, source));
process.stdout.write(
  `gen:capi-schemas-v1.14: ${schemas.map((s) => `${s.kind} ${s.version}`).join(', ')} -> ${out}, ${domainOut}\n`,
);
