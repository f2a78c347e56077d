import { stringify } from 'yaml';
import { crdKinds, crdOf, dcsCrds } from '../crds';

// `pnpm sim:crds` prints the DCS CRDs; `--all` adds this project's rendering of the Cluster API ones.
const crds = process.argv.includes('--all') ? crdKinds.map(crdOf) : dcsCrds();
process.stdout.write(crds.map((crd) => stringify(crd)).join('---\n'));
