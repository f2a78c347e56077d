/**
 * Who may import whom: the table of ARCHITECTURE.md ("The parts and their rooms"), in one place.
 * Keys are package names; `workspace` lists the workspace packages a package may import,
 * `node` says whether Node's built-in modules (I/O) are allowed, `tests` lists what its tests
 * and benchmarks may import besides (the BFF's start the embedded cluster in-process).
 * @type {Record<string, {workspace: string[] | '*', node: boolean, tests?: string[]}>}
 */
export const boundaries = {
  '@dcs/config': { workspace: [], node: true },
  '@dcs/domain': { workspace: [], node: false },
  '@dcs/informer': { workspace: [], node: true },
  '@dcs/apiserver': { workspace: [], node: true },
  '@dcs/simulator': { workspace: ['@dcs/domain', '@dcs/informer', '@dcs/apiserver'], node: true },
  '@dcs/bff': {
    workspace: ['@dcs/domain', '@dcs/informer'],
    node: true,
    tests: ['@dcs/simulator'],
  },
  '@dcs/web': { workspace: ['@dcs/domain'], node: false },
  '@dcs/e2e': { workspace: '*', node: true },
};

export const workspacePackages = Object.keys(boundaries);
