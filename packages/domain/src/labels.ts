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
/**
 * The Kubernetes cluster autoscaler's Cluster API provider (issue 26 item 2, R-AS-1..7): a
 * MachineDeployment carrying both of these (whole numbers, min ≤ max, max ≥ 1) is a node group
 * the autoscaler scales between them (kubernetes/autoscaler, cloudprovider/clusterapi). The same
 * keys in Cluster API v1beta1 and v1beta2; Cluster API's MachineDeployment webhook reads them
 * too, to default an unset `spec.replicas`.
 */
export const ANNOTATION_AUTOSCALER_MIN_SIZE =
  'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const ANNOTATION_AUTOSCALER_MAX_SIZE =
  'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
/**
 * The scale-from-zero capacity annotations (R-AS-6): with both, the autoscaler knows the size of
 * a machine it has not seen, and can scale a pool up from 0 replicas.
 */
export const ANNOTATION_AUTOSCALER_CAPACITY_CPU = 'capacity.cluster-autoscaler.kubernetes.io/cpu';
export const ANNOTATION_AUTOSCALER_CAPACITY_MEMORY =
  'capacity.cluster-autoscaler.kubernetes.io/memory';
/**
 * Where the cluster autoscaler writes its status in the workload cluster (its
 * `--write-status-configmap`, default on): ConfigMap `kube-system/cluster-autoscaler-status`, key
 * `status`, with the time of its last write in an annotation.
 */
export const AUTOSCALER_STATUS_NAMESPACE = 'kube-system';
export const AUTOSCALER_STATUS_CONFIGMAP = 'cluster-autoscaler-status';
export const AUTOSCALER_STATUS_KEY = 'status';
export const ANNOTATION_AUTOSCALER_LAST_UPDATED = 'cluster-autoscaler.kubernetes.io/last-updated';
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
