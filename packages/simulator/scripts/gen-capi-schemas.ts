import { mkdirSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  readReferenceTexts,
  referenceDir,
  referenceSchemasFromTexts,
  referenceSource,
  renderKubeadmFieldsModule,
  renderModule,
} from '../src/capi/reference';

/**
 * `pnpm --filter @dcs/simulator gen:capi-schemas [DIR]`: rewrites `src/generated/capi-schemas.ts`
 * (and `packages/domain/src/generated/kubeadm-config-spec-fields.ts`, the KubeadmConfigSpec field
 * tree requests are judged by) from the reference Cluster API CRDs in DIR (default: $CAPI_REFERENCE_CRDS, else
 * shared/reference/capi-crds beside the repository or one of its parents: `findReferenceDir`).
 */
const args = process.argv.slice(2).filter((a) => a !== '--');
if (args.length > 1) {
  process.stderr.write(`gen:capi-schemas: usage: gen:capi-schemas [DIR], got ${args.join(' ')}\n`);
  process.exit(2);
}
const dir = args[0] ?? referenceDir();
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing is written (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ dir })}\n`);
  process.exit(0);
}
const texts = readReferenceTexts(dir);
if (!texts?.length) {
  process.stderr.write(`gen:capi-schemas: no CRD files (*.yaml) in ${dir}\n`);
  process.exit(2);
}
const schemas = referenceSchemasFromTexts(texts);
const out = join(import.meta.dirname, '..', 'src', 'generated', 'capi-schemas.ts');
writeFileSync(out, renderModule(schemas, referenceSource(dir)));
const domainOut = join(
  import.meta.dirname,
  '..',
  '..',
  'domain',
  'src',
  'generated',
  'kubeadm-config-spec-fields.ts',
);
mkdirSync(dirname(domainOut), { recursive: true });
writeFileSync(domainOut, renderKubeadmFieldsModule(schemas, referenceSource(dir)));
process.stdout.write(`gen:capi-schemas: KubeadmConfigSpec fields -> ${domainOut}\n`);
process.stdout.write(
  `gen:capi-schemas: ${schemas.map((s) => `${s.kind} ${s.version}`).join(', ')} -> ${out}\n`,
);
