import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  readReferenceTexts,
  referenceDir,
  referenceSchemasFromTexts,
  referenceSource,
  renderModule,
} from '../src/capi/reference';

/**
 * `pnpm --filter @dcs/simulator gen:capi-schemas [DIR]`: rewrites `src/generated/capi-schemas.ts`
 * from the reference Cluster API CRDs in DIR (default: $CAPI_REFERENCE_CRDS, else
 * /work/shared/reference/capi-crds).
 */
const dir = process.argv[2] ?? referenceDir();
const texts = readReferenceTexts(dir);
if (!texts?.length) {
  process.stderr.write(`gen:capi-schemas: no CRD files (*.yaml) in ${dir}\n`);
  process.exit(2);
}
const schemas = referenceSchemasFromTexts(texts);
const out = join(import.meta.dirname, '..', 'src', 'generated', 'capi-schemas.ts');
writeFileSync(out, renderModule(schemas, referenceSource(dir)));
process.stdout.write(
  `gen:capi-schemas: ${schemas.map((s) => `${s.kind} ${s.version}`).join(', ')} -> ${out}\n`,
);
