/** Labels and annotations of Cluster API and of this product (DOMAIN.md §1). */
export const LABEL_CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
export const LABEL_DEPLOYMENT_NAME = 'cluster.x-k8s.io/deployment-name';
export const LABEL_SET_NAME = 'cluster.x-k8s.io/set-name';
export const LABEL_CONTROL_PLANE = 'cluster.x-k8s.io/control-plane';
export const LABEL_CONTROL_PLANE_NAME = 'cluster.x-k8s.io/control-plane-name';
export const LABEL_MACHINE_TEMPLATE_HASH = 'machine-template-hash';
export const LABEL_POOL_NAME = 'pool.name';
/** clusterctl's label on a provider's objects; the DCS provider's Deployment carries this value. */
export const LABEL_PROVIDER = 'cluster.x-k8s.io/provider';
export const PROVIDER_DCS = 'infrastructure-dcs';
export const LABEL_APP_VERSION = 'app.kubernetes.io/version';
/**
 * The console's label on the templates it creates for a worker pool (create, upgrade, disk
 * migration): the pool (MachineDeployment) whose history they are, so that deleting the pool
 * can find the templates of its earlier upgrades, which no MachineSet names any more (issue 25).
 */
export const LABEL_TEMPLATE_POOL = 'dcs.io/node-pool';

export const ANNOTATION_DELETE_MACHINE = 'cluster.x-k8s.io/delete-machine';
/**
 * Cluster API's `annotations.HasPaused`: an object carrying this annotation (any value) is not
 * reconciled by its controller (R-PAUSE-1); `Cluster.spec.paused` does the same for every object of
 * the cluster.
 */
export const ANNOTATION_PAUSED = 'cluster.x-k8s.io/paused';
export const ANNOTATION_REVISION = 'machinedeployment.clusters.x-k8s.io/revision';
export const ANNOTATION_DESIRED_REPLICAS = 'machinedeployment.clusters.x-k8s.io/desired-replicas';
export const ANNOTATION_MAX_REPLICAS = 'machinedeployment.clusters.x-k8s.io/max-replicas';

/** The namespace every object of this product lives in by default. */
export const DEFAULT_NAMESPACE = 'cpaas-system';
/** The versions catalog ConfigMap (DOMAIN.md, "The versions catalog"). */
export const VERSIONS_CATALOG_NAME = 'dcs-kubernetes-versions';
export const VERSIONS_CATALOG_KEY = 'versions.yaml';
/** The control-plane pool's reserved id (R-MD-5). */
export const CONTROL_PLANE_POOL_ID = 'control-plane';
/** The kubelet patch file of R-BOOT-1. */
export const KUBELET_PATCH_PATH = '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json';
