import { writeFile } from 'node:fs/promises';
import { startEmbeddedCluster } from '../src/embedded';

/**
 * The benchmark's API server, in its own process so that the controllers' CPU can be measured
 * apart from the server's. Started with fork(); answers `cpu` with its process.cpuUsage().
 */

const kubeconfigPath = process.argv[2];
if (!kubeconfigPath) throw new Error('usage: server.ts KUBECONFIG_OUT');
const cluster = await startEmbeddedCluster();
await writeFile(kubeconfigPath, cluster.kubeconfig);
process.on('message', (msg) => {
  if (msg === 'cpu') process.send?.({ cpu: process.cpuUsage(), memory: process.memoryUsage().rss });
  if (msg === 'stop') void cluster.close().then(() => process.exit(0));
});
process.send?.({ ready: cluster.url });
