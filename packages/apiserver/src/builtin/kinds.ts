/**
 * The built-in kinds this server serves besides the registered ones: core Namespace, ConfigMap,
 * Secret, Event, ServiceAccount, Service (stored only: no cluster IP, no endpoints); events.k8s.io/v1
 * Event (the same resource as core Event, converted); apps/v1 Deployment (stored only: no
 * controller acts on it); Pods, ReplicaSets, DaemonSets and PodDisruptionBudgets (`pods.ts`); RBAC;
 * the access reviews. Their schemas are abridged from the real ones but carry the strategic-merge
 * metadata that `kubectl apply` and strategic merge patches rely on.
 */
import { isObject, put, removeKey } from '../json';
import { resolveKind, type ResourceType } from '../registry';
import { fieldError } from '../status';
import type { JSONSchemaProps, KubeObject } from '../types';
import { eventKinds } from './events';
import { podKinds } from './pods';
import {
  arr,
  bool,
  int,
  labelSelector,
  mergeBy,
  obj,
  objectReference,
  podTemplate,
  preserved,
  s,
  strMap,
} from './schema';

const policyRule = obj(
  'PolicyRule holds information that describes a policy rule.',
  {
    apiGroups: arr('APIGroups is the name of the APIGroup that contains the resources.', s('')),
    resources: arr(
      'Resources is a list of resources this rule applies to. "*" represents all resources.',
      s(''),
    ),
    verbs: arr(
      'Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. "*" represents all verbs.',
      s(''),
    ),
    resourceNames: arr(
      'ResourceNames is an optional white list of names that the rule applies to.',
      s(''),
    ),
    nonResourceURLs: arr(
      'NonResourceURLs is a set of partial urls that a user should have access to.',
      s(''),
    ),
  },
  ['verbs'],
);

const subject = obj(
  'Subject contains a reference to the object or user identities a role binding applies to.',
  {
    kind: s('Kind of object being referenced: "User", "Group", and "ServiceAccount".'),
    name: s('Name of the object being referenced.'),
    namespace: s('Namespace of the referenced object.'),
    apiGroup: s('APIGroup holds the API group of the referenced subject.'),
  },
  ['kind', 'name'],
);

const roleRef = obj(
  'RoleRef contains information that points to the role being used',
  {
    apiGroup: s('APIGroup is the group for the resource being referenced'),
    kind: s('Kind is the type of resource being referenced'),
    name: s('Name is the name of resource being referenced'),
  },
  ['apiGroup', 'kind', 'name'],
);

const resourceAttributes = obj(
  'ResourceAttributes includes the authorization attributes available for resource requests.',
  {
    namespace: s('Namespace of the action being requested.'),
    verb: s('Verb is a kubernetes resource API verb.'),
    group: s('Group is the API Group of the Resource.'),
    version: s('Version is the API Version of the Resource.'),
    resource: s('Resource is one of the existing resource types.'),
    subresource: s('Subresource is one of the existing resource types.'),
    name: s('Name is the name of the resource being requested.'),
  },
);
const nonResourceAttributes = obj(
  'NonResourceAttributes includes the authorization attributes available for non-resource requests.',
  {
    path: s('Path is the URL path of the request'),
    verb: s('Verb is the standard HTTP verb'),
  },
);
const reviewStatus = obj('SubjectAccessReviewStatus', {
  allowed: bool('Allowed is required. True if the action would be allowed, false otherwise.'),
  denied: bool('Denied is optional. True if the action would be denied, otherwise false.'),
  reason: s('Reason is optional. It indicates why a request was allowed or denied.'),
  evaluationError: s(
    'EvaluationError is an indication that some error occurred during the authorization check.',
  ),
});

const ageColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' } as const;

function countOf(v: unknown): number {
  return isObject(v) ? Object.keys(v).length : 0;
}

function b64(v: string): string {
  return Buffer.from(v, 'utf8').toString('base64');
}

/** A node's row as kubectl's printer prints it (pkg/printers/internalversion printNode). */
function nodeRow(o: KubeObject): unknown[] {
  const status = isObject(o.status) ? o.status : {};
  const spec = isObject(o.spec) ? o.spec : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const ready = conditions.find((c) => c.type === 'Ready');
  const states = [
    ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown',
  ];
  if (spec.unschedulable === true) states.push('SchedulingDisabled');
  const prefix = 'node-role.kubernetes.io/';
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith(prefix) && k.length > prefix.length)
    .map((k) => k.slice(prefix.length))
    .sort();
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isObject) : [];
  const address = (type: string) => addresses.find((a) => a.type === type)?.address ?? '<none>';
  const info = isObject(status.nodeInfo) ? status.nodeInfo : {};
  return [
    states.join(','),
    roles.length ? roles.join(',') : '<none>',
    o.metadata.creationTimestamp,
    info.kubeletVersion,
    address('InternalIP'),
    address('ExternalIP'),
    info.osImage,
    info.kernelVersion,
    info.containerRuntimeVersion,
  ];
}

export function builtinKinds(): ResourceType[] {
  return [
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'Namespace',
        plural: 'namespaces',
        scope: 'Cluster',
        shortNames: ['ns'],
        subresources: { status: true },
        openAPIV3Schema: obj('Namespace provides a scope for Names.', {
          spec: obj('Spec defines the behavior of the Namespace.', {
            finalizers: arr(
              'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
              s(''),
            ),
          }),
          status: obj('Status describes the current status of a Namespace.', {
            phase: s('Phase is the current lifecycle phase of the namespace.', {
              enum: ['Active', 'Terminating'],
            }),
            conditions: arr(
              "Represents the latest available observations of a namespace's current state.",
              preserved('NamespaceCondition'),
            ),
          }),
        }),
      },
      {
        generation: false,
        table: {
          columns: [
            {
              name: 'Status',
              type: 'string',
              jsonPath: '.status.phase',
              description: 'The status of the namespace',
            },
            ageColumn,
          ],
          row: (o) => [
            isObject(o.status) ? o.status.phase : undefined,
            o.metadata.creationTimestamp,
          ],
        },
        normalize: (o) => {
          const status = isObject(o.status) ? o.status : {};
          status.phase ??= 'Active';
          o.status = status;
        },
      },
    ),
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'ConfigMap',
        plural: 'configmaps',
        scope: 'Namespaced',
        shortNames: ['cm'],
        openAPIV3Schema: obj('ConfigMap holds configuration data for pods to consume.', {
          data: strMap('Data contains the configuration data.'),
          binaryData: strMap('BinaryData contains the binary data.', 'byte'),
          immutable: bool(
            'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated.',
          ),
        }),
      },
      {
        generation: false,
        table: {
          columns: [
            { name: 'Data', type: 'integer', jsonPath: '.data', description: 'Number of keys' },
            ageColumn,
          ],
          row: (o) => [countOf(o.data) + countOf(o.binaryData), o.metadata.creationTimestamp],
        },
        validate: immutableData,
      },
    ),
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'Secret',
        plural: 'secrets',
        scope: 'Namespaced',
        openAPIV3Schema: obj('Secret holds secret data of a certain type.', {
          data: strMap('Data contains the secret data, base64 encoded.', 'byte'),
          stringData: strMap(
            'stringData allows specifying non-binary secret data in string form. It is merged into data on write.',
          ),
          type: s('Used to facilitate programmatic handling of secret data.'),
          immutable: bool(
            'Immutable, if set to true, ensures that data stored in the Secret cannot be updated.',
          ),
        }),
      },
      {
        generation: false,
        table: {
          columns: [
            {
              name: 'Type',
              type: 'string',
              jsonPath: '.type',
              description: 'The type of the secret',
            },
            { name: 'Data', type: 'integer', jsonPath: '.data', description: 'Number of keys' },
            ageColumn,
          ],
          row: (o) => [o.type, countOf(o.data), o.metadata.creationTimestamp],
        },
        normalize: (o) => {
          if (typeof o.type !== 'string' || o.type === '') o.type = 'Opaque';
          if (isObject(o.stringData)) {
            const data = isObject(o.data) ? o.data : {};
            for (const [k, v] of Object.entries(o.stringData))
              if (typeof v === 'string') put(data, k, b64(v));
            o.data = data;
          }
          removeKey(o, 'stringData');
        },
        validate: immutableData,
      },
    ),
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'ServiceAccount',
        plural: 'serviceaccounts',
        scope: 'Namespaced',
        shortNames: ['sa'],
        openAPIV3Schema: obj(
          'ServiceAccount binds together a name, a principal that can be authenticated, and a set of secrets.',
          {
            secrets: arr('Secrets', objectReference, mergeBy('name')),
            imagePullSecrets: arr(
              'ImagePullSecrets',
              obj('LocalObjectReference', { name: s('Name of the referent.') }),
            ),
            automountServiceAccountToken: bool(
              'Whether pods running as this service account should have an API token automatically mounted.',
            ),
          },
        ),
      },
      {
        generation: false,
        table: {
          columns: [
            {
              name: 'Secrets',
              type: 'integer',
              jsonPath: '.secrets',
              description: 'Number of secrets',
            },
            ageColumn,
          ],
          row: (o) => [
            Array.isArray(o.secrets) ? o.secrets.length : 0,
            o.metadata.creationTimestamp,
          ],
        },
      },
    ),
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'Node',
        plural: 'nodes',
        scope: 'Cluster',
        shortNames: ['no'],
        subresources: { status: true },
        selectableFields: ['spec.unschedulable'],
        openAPIV3Schema: obj('Node is a worker node in Kubernetes.', {
          spec: obj('Spec defines the behavior of a node.', {
            podCIDR: s('PodCIDR represents the pod IP range assigned to the node.'),
            podCIDRs: arr('podCIDRs represents the IP ranges assigned to the node.', s('')),
            providerID: s('ID of the node assigned by the cloud provider.'),
            unschedulable: bool('Unschedulable controls node schedulability of new pods.'),
            taints: arr(
              "If specified, the node's taints.",
              obj(
                'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
                {
                  key: s('Required. The taint key to be applied to a node.'),
                  value: s('The taint value corresponding to the taint key.'),
                  effect: s('Required. The effect of the taint on pods that do not tolerate it.', {
                    enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
                  }),
                  timeAdded: s('TimeAdded represents the time at which the taint was added.', {
                    format: 'date-time',
                  }),
                },
                ['key', 'effect'],
              ),
            ),
          }),
          status: obj('Most recently observed status of the node.', {
            capacity: preserved('Capacity represents the total resources of a node.'),
            allocatable: preserved(
              'Allocatable represents the resources available for scheduling.',
            ),
            conditions: arr(
              'Conditions is an array of current observed node conditions.',
              obj(
                'NodeCondition contains condition information for a node.',
                {
                  type: s('Type of node condition.'),
                  status: s('Status of the condition, one of True, False, Unknown.'),
                  lastHeartbeatTime: s('Last time we got an update on a given condition.', {
                    format: 'date-time',
                  }),
                  lastTransitionTime: s(
                    'Last time the condition transit from one status to another.',
                    { format: 'date-time' },
                  ),
                  reason: s("(brief) reason for the condition's last transition."),
                  message: s('Human readable message indicating details about last transition.'),
                },
                ['type', 'status'],
              ),
              mergeBy('type'),
            ),
            addresses: arr(
              'List of addresses reachable to the node.',
              obj('NodeAddress', { type: s('Node address type.'), address: s('The address.') }, [
                'type',
                'address',
              ]),
              mergeBy('type'),
            ),
            daemonEndpoints: preserved('Endpoints of daemons running on the Node.'),
            nodeInfo: preserved('Set of ids/uuids to uniquely identify the node.'),
            images: arr('List of container images on this node', preserved('ContainerImage')),
          }),
        }),
      },
      {
        generation: false,
        // kubectl get nodes: NAME STATUS ROLES AGE VERSION, and with -o wide the addresses and OS.
        table: {
          columns: [
            {
              name: 'Status',
              type: 'string',
              jsonPath: '.status.conditions',
              description: 'The status of the node',
            },
            {
              name: 'Roles',
              type: 'string',
              jsonPath: '.metadata.labels',
              description: 'The roles of the node',
            },
            ageColumn,
            {
              name: 'Version',
              type: 'string',
              jsonPath: '.status.nodeInfo.kubeletVersion',
              description: 'Kubelet Version reported by the node.',
            },
            {
              name: 'Internal-IP',
              type: 'string',
              jsonPath: '.status.addresses',
              description: 'List of internal IPs.',
              priority: 1,
            },
            {
              name: 'External-IP',
              type: 'string',
              jsonPath: '.status.addresses',
              description: 'List of external IPs.',
              priority: 1,
            },
            {
              name: 'OS-Image',
              type: 'string',
              jsonPath: '.status.nodeInfo.osImage',
              description: 'OS image reported by the node.',
              priority: 1,
            },
            {
              name: 'Kernel-Version',
              type: 'string',
              jsonPath: '.status.nodeInfo.kernelVersion',
              description: 'Kernel version reported by the node.',
              priority: 1,
            },
            {
              name: 'Container-Runtime',
              type: 'string',
              jsonPath: '.status.nodeInfo.containerRuntimeVersion',
              description: 'Container runtime version reported by the node.',
              priority: 1,
            },
          ],
          row: nodeRow,
        },
      },
    ),
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'Service',
        plural: 'services',
        scope: 'Namespaced',
        shortNames: ['svc'],
        categories: ['all'],
        subresources: { status: true },
        openAPIV3Schema: obj(
          'Service is a named abstraction of software service consisting of a local port that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
          {
            spec: obj('Spec defines the behavior of a service.', {
              type: {
                ...s('type determines how the Service is exposed.', {
                  enum: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
                }),
                default: 'ClusterIP',
              },
              selector: strMap(
                'Route service traffic to pods with label keys and values matching this selector.',
              ),
              ports: arr(
                'The list of ports that are exposed by this service.',
                obj(
                  'ServicePort contains information on service’s port.',
                  {
                    name: s('The name of this port within the service.'),
                    protocol: {
                      ...s('The IP protocol for this port.', { enum: ['TCP', 'UDP', 'SCTP'] }),
                      default: 'TCP',
                    },
                    appProtocol: s('The application protocol for this port.'),
                    port: int('The port that will be exposed by this service.'),
                    targetPort: {
                      'x-kubernetes-int-or-string': true,
                      description:
                        'Number or name of the port to access on the pods targeted by the service.',
                    },
                    nodePort: int('The port on each node on which this service is exposed.'),
                  },
                  ['port'],
                ),
                {
                  'x-kubernetes-patch-strategy': 'merge',
                  'x-kubernetes-patch-merge-key': 'port',
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['port', 'protocol'],
                },
              ),
              clusterIP: s('clusterIP is the IP address of the service (not allocated here).'),
              clusterIPs: arr('ClusterIPs', s('An IP address.'), {
                'x-kubernetes-list-type': 'atomic',
              }),
              externalIPs: arr('externalIPs', s('An IP address.')),
              externalName: s('The external reference of an ExternalName service.'),
              loadBalancerIP: s('Deprecated: the load balancer IP.'),
              loadBalancerSourceRanges: arr('Allowed client source ranges.', s('A CIDR.')),
              sessionAffinity: {
                ...s('Session affinity.', { enum: ['ClientIP', 'None'] }),
                default: 'None',
              },
              sessionAffinityConfig: preserved('Configurations of session affinity.'),
              externalTrafficPolicy: s('How external traffic is routed.'),
              internalTrafficPolicy: s('How cluster-internal traffic is routed.'),
              ipFamilies: arr('IPFamilies', s('An IP family.'), {
                'x-kubernetes-list-type': 'atomic',
              }),
              ipFamilyPolicy: s('The dual-stack-ness requested or required by this Service.'),
              publishNotReadyAddresses: bool('Publish addresses of endpoints not ready.'),
              allocateLoadBalancerNodePorts: bool(
                'Whether node ports are allocated for a load balancer.',
              ),
              healthCheckNodePort: int('The health check node port.'),
              loadBalancerClass: s('The class of the load balancer implementation.'),
              trafficDistribution: s('How traffic is distributed to endpoints.'),
            }),
            status: obj('Most recently observed status of the service.', {
              loadBalancer: preserved(
                'The current status of the load-balancer, if one is present.',
              ),
              conditions: arr('Current service state.', preserved('Condition'), mergeBy('type')),
            }),
          },
        ),
      },
      {
        // Stored only, like Deployment: no cluster IP is allocated and no endpoints are kept.
        generation: false,
        table: {
          columns: [
            {
              name: 'Type',
              type: 'string',
              jsonPath: '.spec.type',
              description: 'The type of the service.',
            },
            {
              name: 'Cluster-IP',
              type: 'string',
              jsonPath: '.spec.clusterIP',
              description: 'The IP address of the service.',
            },
            {
              name: 'External-IP',
              type: 'string',
              jsonPath: '.status.loadBalancer.ingress',
              description: 'External IP addresses of the service.',
            },
            {
              name: 'Port(s)',
              type: 'string',
              jsonPath: '.spec.ports',
              description: 'The ports of the service.',
            },
            ageColumn,
            {
              name: 'Selector',
              type: 'string',
              jsonPath: '.spec.selector',
              priority: 1,
              description: 'The label selector of the service.',
            },
          ],
          row: (o) => {
            const spec = isObject(o.spec) ? o.spec : {};
            const status = isObject(o.status) ? o.status : {};
            const lb = isObject(status.loadBalancer) ? status.loadBalancer : {};
            const ingress = Array.isArray(lb.ingress) ? lb.ingress.filter(isObject) : [];
            const external = [
              ...(Array.isArray(spec.externalIPs) ? spec.externalIPs.map(String) : []),
              ...ingress.map((i) =>
                typeof i.ip === 'string' ? i.ip : typeof i.hostname === 'string' ? i.hostname : '',
              ),
            ].filter((x) => x !== '');
            const ports = (Array.isArray(spec.ports) ? spec.ports.filter(isObject) : []).map(
              (p) =>
                `${String(p.port)}${typeof p.nodePort === 'number' ? `:${String(p.nodePort)}` : ''}/${typeof p.protocol === 'string' ? p.protocol : 'TCP'}`,
            );
            const selector = isObject(spec.selector) ? spec.selector : {};
            return [
              typeof spec.type === 'string' ? spec.type : 'ClusterIP',
              typeof spec.clusterIP === 'string' && spec.clusterIP !== ''
                ? spec.clusterIP
                : '<none>',
              spec.type === 'ExternalName' && typeof spec.externalName === 'string'
                ? spec.externalName
                : external.length > 0
                  ? external.join(',')
                  : spec.type === 'LoadBalancer'
                    ? '<pending>'
                    : '<none>',
              ports.length > 0 ? ports.join(',') : '<none>',
              o.metadata.creationTimestamp,
              Object.keys(selector).length > 0
                ? Object.entries(selector)
                    .map(([k, v]) => `${k}=${String(v)}`)
                    .join(',')
                : '<none>',
            ];
          },
        },
      },
    ),
    ...eventKinds(),
    ...podKinds(),
    resolveKind(
      {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        plural: 'deployments',
        scope: 'Namespaced',
        shortNames: ['deploy'],
        categories: ['all'],
        subresources: { status: true, scale: true },
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.spec.selector',
        },
        openAPIV3Schema: obj('Deployment enables declarative updates for Pods and ReplicaSets.', {
          spec: obj(
            'Specification of the desired behavior of the Deployment.',
            {
              replicas: { ...int('Number of desired pods.'), default: 1 },
              selector: labelSelector,
              template: podTemplate,
              strategy: preserved(
                'The deployment strategy to use to replace existing pods with new ones.',
              ),
              minReadySeconds: int(
                'Minimum number of seconds for which a newly created pod should be ready.',
              ),
              revisionHistoryLimit: {
                ...int('The number of old ReplicaSets to retain.'),
                default: 10,
              },
              paused: bool('Indicates that the deployment is paused.'),
              progressDeadlineSeconds: {
                ...int('The maximum time in seconds for a deployment to make progress.'),
                default: 600,
              },
            },
            ['selector', 'template'],
          ),
          status: obj('Most recently observed status of the Deployment.', {
            observedGeneration: {
              type: 'integer',
              format: 'int64',
              description: 'The generation observed by the deployment controller.',
            },
            replicas: int('Total number of non-terminated pods targeted by this deployment.'),
            updatedReplicas: int(
              'Total number of non-terminated pods that have the desired template spec.',
            ),
            readyReplicas: int('Total number of ready pods.'),
            availableReplicas: int('Total number of available pods.'),
            unavailableReplicas: int('Total number of unavailable pods.'),
            conditions: arr(
              "Represents the latest available observations of a deployment's current state.",
              preserved('DeploymentCondition'),
              mergeBy('type'),
            ),
          }),
        }),
      },
      {
        table: {
          columns: [
            {
              name: 'Ready',
              type: 'string',
              jsonPath: '.status.readyReplicas',
              description: 'Number of the pod with ready state',
            },
            {
              name: 'Up-to-date',
              type: 'string',
              jsonPath: '.status.updatedReplicas',
              description:
                'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
            },
            {
              name: 'Available',
              type: 'string',
              jsonPath: '.status.availableReplicas',
              description:
                'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
            },
            ageColumn,
            {
              name: 'Containers',
              type: 'string',
              jsonPath: '.spec.template.spec.containers[*].name',
              priority: 1,
              description: 'Names of each container in the template.',
            },
            {
              name: 'Images',
              type: 'string',
              jsonPath: '.spec.template.spec.containers[*].image',
              priority: 1,
              description: 'Images referenced by each container in the template.',
            },
            {
              name: 'Selector',
              type: 'string',
              jsonPath: '.spec.selector',
              priority: 1,
              description: 'The label selector for selecting pods targeted by this deployment.',
            },
          ],
          row: (o) => {
            const spec = isObject(o.spec) ? o.spec : {};
            const status = isObject(o.status) ? o.status : {};
            const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
            const tmpl =
              isObject(spec.template) && isObject(spec.template.spec) ? spec.template.spec : {};
            const containers = Array.isArray(tmpl.containers)
              ? tmpl.containers.filter(isObject)
              : [];
            const sel =
              isObject(spec.selector) && isObject(spec.selector.matchLabels)
                ? spec.selector.matchLabels
                : {};
            return [
              `${num(status.readyReplicas)}/${num(spec.replicas)}`,
              num(status.updatedReplicas),
              num(status.availableReplicas),
              o.metadata.creationTimestamp,
              containers.map((c) => String(c.name)).join(','),
              containers.map((c) => String(c.image)).join(','),
              Object.entries(sel)
                .map(([k, v]) => `${k}=${String(v)}`)
                .join(','),
            ];
          },
        },
      },
    ),
    rbac(
      'Role',
      'roles',
      'Namespaced',
      obj('Role is a namespaced, logical grouping of PolicyRules.', {
        rules: arr('Rules holds all the PolicyRules for this Role', policyRule),
      }),
    ),
    rbac(
      'ClusterRole',
      'clusterroles',
      'Cluster',
      obj('ClusterRole is a cluster level, logical grouping of PolicyRules.', {
        rules: arr('Rules holds all the PolicyRules for this ClusterRole', policyRule),
        aggregationRule: preserved(
          'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.',
        ),
      }),
    ),
    rbac(
      'RoleBinding',
      'rolebindings',
      'Namespaced',
      obj(
        'RoleBinding references a role, but does not contain it.',
        {
          subjects: arr('Subjects holds references to the objects the role applies to.', subject),
          roleRef,
        },
        ['roleRef'],
      ),
    ),
    rbac(
      'ClusterRoleBinding',
      'clusterrolebindings',
      'Cluster',
      obj(
        'ClusterRoleBinding references a ClusterRole, but not contain it.',
        {
          subjects: arr('Subjects holds references to the objects the role applies to.', subject),
          roleRef,
        },
        ['roleRef'],
      ),
    ),
    review(
      'SelfSubjectAccessReview',
      'selfsubjectaccessreviews',
      'Cluster',
      obj('SelfSubjectAccessReviewSpec', { resourceAttributes, nonResourceAttributes }),
    ),
    review(
      'SubjectAccessReview',
      'subjectaccessreviews',
      'Cluster',
      obj('SubjectAccessReviewSpec', {
        resourceAttributes,
        nonResourceAttributes,
        user: s("User is the user you're testing for."),
        groups: arr("Groups is the groups you're testing for.", s('')),
        uid: s('UID information about the requesting user.'),
        extra: preserved(
          'Extra corresponds to the user.Info.GetExtra() method from the authenticator.',
        ),
      }),
    ),
    review(
      'LocalSubjectAccessReview',
      'localsubjectaccessreviews',
      'Namespaced',
      obj('SubjectAccessReviewSpec', {
        resourceAttributes,
        nonResourceAttributes,
        user: s("User is the user you're testing for."),
        groups: arr("Groups is the groups you're testing for.", s('')),
        uid: s('UID information about the requesting user.'),
        extra: preserved('Extra'),
      }),
    ),
    review(
      'SelfSubjectRulesReview',
      'selfsubjectrulesreviews',
      'Cluster',
      obj('SelfSubjectRulesReviewSpec', { namespace: s('Namespace to evaluate rules for.') }),
    ),
    resolveKind(
      {
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'SelfSubjectReview',
        plural: 'selfsubjectreviews',
        scope: 'Cluster',
        openAPIV3Schema: obj(
          'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request.',
          { status: preserved('Status is filled in by the server with the user attributes.') },
        ),
      },
      { virtual: true, generation: false },
    ),
  ];
}

function immutableData(o: KubeObject, old: KubeObject | undefined) {
  if (old?.immutable !== true) return [];
  if (
    JSON.stringify(o.data) !== JSON.stringify(old.data) ||
    JSON.stringify(o.binaryData) !== JSON.stringify(old.binaryData)
  ) {
    return [fieldError.forbidden('data', 'field is immutable when `immutable` is set')];
  }
  return [];
}

function rbac(
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  schema: JSONSchemaProps,
): ResourceType {
  return resolveKind(
    {
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      kind,
      plural,
      scope,
      openAPIV3Schema: schema,
    },
    {
      generation: false,
      validate: (o, old) => {
        if (
          kind.endsWith('Binding') &&
          old &&
          JSON.stringify(o.roleRef) !== JSON.stringify(old.roleRef)
        ) {
          return [fieldError.invalid('roleRef', o.roleRef, 'cannot change roleRef')];
        }
        return [];
      },
      table: kind.endsWith('Binding')
        ? {
            columns: [
              { name: 'Role', type: 'string', jsonPath: '.roleRef', description: 'The role' },
              ageColumn,
              { name: 'Users', type: 'string', jsonPath: '.subjects', priority: 1 },
              { name: 'Groups', type: 'string', jsonPath: '.subjects', priority: 1 },
              { name: 'ServiceAccounts', type: 'string', jsonPath: '.subjects', priority: 1 },
            ],
            row: (o) => {
              const ref = isObject(o.roleRef) ? o.roleRef : {};
              const subs = Array.isArray(o.subjects) ? o.subjects.filter(isObject) : [];
              const names = (k: string) =>
                subs
                  .filter((x) => x.kind === k)
                  .map((x) =>
                    k === 'ServiceAccount'
                      ? `${typeof x.namespace === 'string' ? x.namespace : ''}/${String(x.name)}`
                      : String(x.name),
                  )
                  .join(', ');
              return [
                `${String(ref.kind)}/${String(ref.name)}`,
                o.metadata.creationTimestamp,
                names('User'),
                names('Group'),
                names('ServiceAccount'),
              ];
            },
          }
        : {
            columns: [
              { name: 'Created At', type: 'string', jsonPath: '.metadata.creationTimestamp' },
            ],
            row: (o) => [o.metadata.creationTimestamp],
          },
    },
  );
}

function review(
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  spec: JSONSchemaProps,
): ResourceType {
  return resolveKind(
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      kind,
      plural,
      scope,
      openAPIV3Schema: obj(
        `${kind} checks whether or not an action may be performed.`,
        {
          spec,
          status:
            kind === 'SelfSubjectRulesReview'
              ? preserved('Status is filled in by the server.')
              : reviewStatus,
        },
        ['spec'],
      ),
    },
    { virtual: true, generation: false },
  );
}

/** The namespaces a fresh server has, as kube-apiserver creates them. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
