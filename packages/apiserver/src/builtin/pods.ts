/**
 * Pods and what drains them (issue 26 item 6): core/v1 Pod (graceful deletion, the `eviction`
 * subresource, the `spec.nodeName` field selector a drain lists a Node's Pods by), apps/v1
 * ReplicaSet and DaemonSet (stored only: a drain reads a Pod's controller, nothing here acts on
 * them), policy/v1 PodDisruptionBudget (validated as kube-apiserver validates it; its status is
 * written by a disruption controller, the simulator's). Schemas abridged from the real ones.
 */
import { isObject } from '../json';
import { resolveKind, type ResourceType } from '../registry';
import { fieldError, type FieldError } from '../status';
import type { JSONSchemaProps, KubeObject } from '../types';
import {
  arr,
  int,
  labelSelector,
  mergeBy,
  obj,
  podSpecFields,
  podTemplate,
  preserved,
  s,
  strMap,
} from './schema';

const ageColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' } as const;

const intOrString = (description: string): JSONSchemaProps => ({
  description,
  'x-kubernetes-int-or-string': true,
});

const condition = obj('Condition contains details for one aspect of the current state.', {
  type: s('Type of condition.'),
  status: s('Status of the condition, one of True, False, Unknown.'),
  observedGeneration: {
    type: 'integer',
    format: 'int64',
    description: 'The .metadata.generation the condition was set based upon.',
  },
  lastTransitionTime: s('Last time the condition transitioned.', { format: 'date-time' }),
  reason: s("A programmatic identifier of the condition's last transition."),
  message: s('A human readable message about the transition.'),
});

const podSpec: JSONSchemaProps = {
  ...obj('PodSpec is a description of a pod.', {
    nodeName: s('NodeName indicates in which node this pod is scheduled.'),
    ...podSpecFields,
    restartPolicy: s('Restart policy for all containers within the pod.'),
    terminationGracePeriodSeconds: {
      type: 'integer',
      format: 'int64',
      description: 'Optional duration in seconds the pod needs to terminate gracefully.',
    },
    priorityClassName: s('The priority class of the pod.'),
    schedulerName: s('The scheduler that dispatches the pod.'),
  }),
  'x-kubernetes-preserve-unknown-fields': true,
};

const podStatus = obj('PodStatus represents information about the status of a pod.', {
  phase: s('The phase of a Pod.', {
    enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'],
  }),
  conditions: arr('Current service state of pod.', preserved('PodCondition'), mergeBy('type')),
  message: s('A human readable message indicating details about why the pod is in this condition.'),
  reason: s('A brief CamelCase message indicating details about why the pod is in this state.'),
  hostIP: s('hostIP holds the IP address of the host to which the pod is assigned.'),
  hostIPs: arr('hostIPs holds the IP addresses allocated to the host.', preserved('HostIP')),
  nominatedNodeName: s(
    'nominatedNodeName is set only when this pod preempts other pods on the node.',
  ),
  initContainerStatuses: arr('The status of each init container.', preserved('ContainerStatus')),
  ephemeralContainerStatuses: arr(
    'The status of each ephemeral container.',
    preserved('ContainerStatus'),
  ),
  observedGeneration: {
    type: 'integer',
    format: 'int64',
    description: 'The .metadata.generation that the pod status was set based upon.',
  },
  podIP: s('podIP address allocated to the pod.'),
  podIPs: arr('podIPs holds the IP addresses allocated to the pod.', preserved('PodIP')),
  startTime: s('RFC 3339 date and time at which the object was acknowledged by the Kubelet.', {
    format: 'date-time',
  }),
  containerStatuses: arr('The status of each container.', preserved('ContainerStatus')),
  qosClass: s('The Quality of Service (QOS) classification assigned to the pod.'),
});

type Json = Record<string, unknown>;
const objOf = (v: unknown): Json => (isObject(v) ? v : {});
const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** A Pod's row as kubectl prints it (pkg/printers/internalversion printPod), abridged. */
function podRow(o: KubeObject): unknown[] {
  const spec = objOf(o.spec);
  const status = objOf(o.status);
  const containers = listOf(spec.containers);
  const statuses = listOf(status.containerStatuses);
  let reason =
    typeof status.reason === 'string' && status.reason !== ''
      ? status.reason
      : typeof status.phase === 'string'
        ? status.phase
        : '';
  let restarts = 0;
  let ready = 0;
  for (const c of statuses) {
    restarts += typeof c.restartCount === 'number' ? c.restartCount : 0;
    const state = objOf(c.state);
    const waiting = objOf(state.waiting);
    const terminated = objOf(state.terminated);
    if (typeof waiting.reason === 'string' && waiting.reason !== '') reason = waiting.reason;
    else if (typeof terminated.reason === 'string' && terminated.reason !== '')
      reason = terminated.reason;
    else if (c.ready === true && isObject(state.running)) ready++;
  }
  if (o.metadata.deletionTimestamp) {
    reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  }
  const gates = listOf(spec.readinessGates);
  const conditions = listOf(status.conditions);
  const trueGates = gates.filter((g) =>
    conditions.some((c) => c.type === g.conditionType && c.status === 'True'),
  ).length;
  return [
    `${String(ready)}/${String(containers.length)}`,
    reason,
    String(restarts),
    o.metadata.creationTimestamp,
    typeof status.podIP === 'string' && status.podIP !== '' ? status.podIP : '<none>',
    typeof spec.nodeName === 'string' && spec.nodeName !== '' ? spec.nodeName : '<none>',
    typeof status.nominatedNodeName === 'string' && status.nominatedNodeName !== ''
      ? status.nominatedNodeName
      : '<none>',
    gates.length ? `${String(trueGates)}/${String(gates.length)}` : '<none>',
  ];
}

/**
 * The grace period a DELETE gives a Pod (pkg/registry/core/pod/strategy.go CheckGracefulDelete):
 * none for a Pod bound to no Node or already finished, else its terminationGracePeriodSeconds
 * (default 30).
 */
export function podGracePeriod(o: KubeObject): number {
  const spec = objOf(o.spec);
  const phase = objOf(o.status).phase;
  if (typeof spec.nodeName !== 'string' || spec.nodeName === '') return 0;
  if (phase === 'Succeeded' || phase === 'Failed') return 0;
  const g = spec.terminationGracePeriodSeconds;
  return typeof g === 'number' && g >= 0 ? g : 30;
}

const PERCENT = /^[0-9]+%$/;

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent (apis/apps/validation). */
function intOrPercentErrors(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') {
    return value < 0
      ? [fieldError.invalid(field, value, 'must be greater than or equal to 0')]
      : [];
  }
  if (typeof value === 'string') {
    if (!PERCENT.test(value)) {
      return [
        fieldError.invalid(
          field,
          value,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ];
    }
    return Number(value.slice(0, -1)) > 100
      ? [fieldError.invalid(field, value, 'must not be greater than 100%')]
      : [];
  }
  return [fieldError.invalid(field, value, "must be an integer or percentage (e.g '5%')")];
}

/** ValidatePodDisruptionBudgetSpec: minAvailable or maxUnavailable (not both), each int or percent. */
export function validatePdb(o: KubeObject): FieldError[] {
  const spec = objOf(o.spec);
  const errors: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errors.push(
      fieldError.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'),
    );
  }
  errors.push(...intOrPercentErrors(spec.minAvailable, 'spec.minAvailable'));
  errors.push(...intOrPercentErrors(spec.maxUnavailable, 'spec.maxUnavailable'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== 'IfHealthyBudget' && policy !== 'AlwaysAllow') {
    errors.push(
      fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, [
        'AlwaysAllow',
        'IfHealthyBudget',
      ]),
    );
  }
  return errors;
}

const intOrNA = (v: unknown) =>
  typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A';

const containerColumns = [
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
    description: 'The label selector for selecting pods targeted by this controller.',
  },
] as const;

function templateCells(o: KubeObject): string[] {
  const spec = objOf(o.spec);
  const tmpl = objOf(objOf(spec.template).spec);
  const containers = listOf(tmpl.containers);
  const sel = objOf(objOf(spec.selector).matchLabels);
  return [
    containers.map((c) => String(c.name)).join(','),
    containers.map((c) => String(c.image)).join(','),
    Object.entries(sel)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(','),
  ];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export function podKinds(): ResourceType[] {
  return [
    resolveKind(
      {
        group: '',
        version: 'v1',
        kind: 'Pod',
        plural: 'pods',
        scope: 'Namespaced',
        shortNames: ['po'],
        categories: ['all'],
        subresources: { status: true },
        selectableFields: ['spec.nodeName', 'spec.restartPolicy', 'status.phase'],
        openAPIV3Schema: obj('Pod is a collection of containers that can run on a host.', {
          spec: podSpec,
          status: podStatus,
        }),
      },
      {
        generation: false,
        gracefulDelete: podGracePeriod,
        eviction: true,
        table: {
          columns: [
            {
              name: 'Ready',
              type: 'string',
              jsonPath: '.status.containerStatuses',
              description: 'The aggregate readiness state of this pod for accepting traffic.',
            },
            {
              name: 'Status',
              type: 'string',
              jsonPath: '.status.phase',
              description: 'The aggregate status of the containers in this pod.',
            },
            {
              name: 'Restarts',
              type: 'string',
              jsonPath: '.status.containerStatuses',
              description:
                'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
            },
            ageColumn,
            {
              name: 'IP',
              type: 'string',
              jsonPath: '.status.podIP',
              priority: 1,
              description: 'IP address of the pod',
            },
            {
              name: 'Node',
              type: 'string',
              jsonPath: '.spec.nodeName',
              priority: 1,
              description: 'Name of the Node',
            },
            {
              name: 'Nominated Node',
              type: 'string',
              jsonPath: '.status.nominatedNodeName',
              priority: 1,
              description: 'Name of the Node which was nominated',
            },
            {
              name: 'Readiness Gates',
              type: 'string',
              jsonPath: '.spec.readinessGates',
              priority: 1,
              description: 'Readiness gates of the pod',
            },
          ],
          row: podRow,
        },
      },
    ),
    resolveKind(
      {
        group: 'apps',
        version: 'v1',
        kind: 'ReplicaSet',
        plural: 'replicasets',
        scope: 'Namespaced',
        shortNames: ['rs'],
        categories: ['all'],
        subresources: { status: true, scale: true },
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.spec.selector',
        },
        openAPIV3Schema: obj(
          'ReplicaSet ensures that a specified number of pod replicas are running at any given time.',
          {
            spec: obj(
              'Spec defines the specification of the desired behavior of the ReplicaSet.',
              {
                replicas: { ...int('Replicas is the number of desired pods.'), default: 1 },
                minReadySeconds: int(
                  'Minimum number of seconds for which a newly created pod should be ready.',
                ),
                selector: labelSelector,
                template: podTemplate,
              },
              ['selector'],
            ),
            status: obj('The most recently observed status of the ReplicaSet.', {
              replicas: int(
                'Replicas is the most recently observed number of non-terminating pods.',
              ),
              fullyLabeledReplicas: int(
                'The number of non-terminating pods that have labels matching the labels of the pod template.',
              ),
              readyReplicas: int(
                'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
              ),
              availableReplicas: int('The number of available non-terminating pods.'),
              observedGeneration: {
                type: 'integer',
                format: 'int64',
                description: 'The generation of the most recently observed ReplicaSet.',
              },
              conditions: arr('Conditions', preserved('ReplicaSetCondition'), mergeBy('type')),
            }),
          },
        ),
      },
      {
        table: {
          columns: [
            {
              name: 'Desired',
              type: 'integer',
              jsonPath: '.spec.replicas',
              description: 'Number of desired pods.',
            },
            {
              name: 'Current',
              type: 'integer',
              jsonPath: '.status.replicas',
              description: 'Number of actual replicas.',
            },
            {
              name: 'Ready',
              type: 'integer',
              jsonPath: '.status.readyReplicas',
              description: 'Number of ready replicas.',
            },
            ageColumn,
            ...containerColumns,
          ],
          row: (o) => {
            const spec = objOf(o.spec);
            const status = objOf(o.status);
            return [
              num(spec.replicas),
              num(status.replicas),
              num(status.readyReplicas),
              o.metadata.creationTimestamp,
              ...templateCells(o),
            ];
          },
        },
      },
    ),
    resolveKind(
      {
        group: 'apps',
        version: 'v1',
        kind: 'DaemonSet',
        plural: 'daemonsets',
        scope: 'Namespaced',
        shortNames: ['ds'],
        categories: ['all'],
        subresources: { status: true },
        openAPIV3Schema: obj('DaemonSet represents the configuration of a daemon set.', {
          spec: obj(
            'The desired behavior of this daemon set.',
            {
              selector: labelSelector,
              template: podTemplate,
              updateStrategy: preserved(
                'An update strategy to replace existing DaemonSet pods with new pods.',
              ),
              minReadySeconds: int(
                'The minimum number of seconds for which a newly created DaemonSet pod should be ready.',
              ),
              revisionHistoryLimit: int('The number of old history to retain to allow rollback.'),
            },
            ['selector', 'template'],
          ),
          status: obj('The current status of this daemon set.', {
            currentNumberScheduled: int(
              'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
            ),
            numberMisscheduled: int(
              'The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.',
            ),
            desiredNumberScheduled: int(
              'The total number of nodes that should be running the daemon pod.',
            ),
            numberReady: int(
              'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
            ),
            updatedNumberScheduled: int(
              'The total number of nodes that are running updated daemon pod.',
            ),
            numberAvailable: int(
              'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.',
            ),
            numberUnavailable: int(
              'The number of nodes that should be running the daemon pod and have none of the daemon pod running and available.',
            ),
            observedGeneration: {
              type: 'integer',
              format: 'int64',
              description: 'The most recent generation observed by the daemon set controller.',
            },
            conditions: arr('Conditions', preserved('DaemonSetCondition'), mergeBy('type')),
          }),
        }),
      },
      {
        table: {
          columns: [
            {
              name: 'Desired',
              type: 'integer',
              jsonPath: '.status.desiredNumberScheduled',
              description: 'The total number of nodes that should be running the daemon pod.',
            },
            {
              name: 'Current',
              type: 'integer',
              jsonPath: '.status.currentNumberScheduled',
              description:
                'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
            },
            {
              name: 'Ready',
              type: 'integer',
              jsonPath: '.status.numberReady',
              description:
                'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
            },
            {
              name: 'Up-to-date',
              type: 'integer',
              jsonPath: '.status.updatedNumberScheduled',
              description: 'The total number of nodes that are running updated daemon pod',
            },
            {
              name: 'Available',
              type: 'integer',
              jsonPath: '.status.numberAvailable',
              description:
                'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
            },
            {
              name: 'Node Selector',
              type: 'string',
              jsonPath: '.spec.template.spec.nodeSelector',
              description: 'The node selector of the daemon set',
            },
            ageColumn,
            ...containerColumns,
          ],
          row: (o) => {
            const status = objOf(o.status);
            const tmpl = objOf(objOf(objOf(o.spec).template).spec);
            const sel = objOf(tmpl.nodeSelector);
            return [
              num(status.desiredNumberScheduled),
              num(status.currentNumberScheduled),
              num(status.numberReady),
              num(status.updatedNumberScheduled),
              num(status.numberAvailable),
              Object.keys(sel).length
                ? Object.entries(sel)
                    .map(([k, v]) => `${k}=${String(v)}`)
                    .join(',')
                : '<none>',
              o.metadata.creationTimestamp,
              ...templateCells(o),
            ];
          },
        },
      },
    ),
    resolveKind(
      {
        group: 'policy',
        version: 'v1',
        kind: 'PodDisruptionBudget',
        plural: 'poddisruptionbudgets',
        scope: 'Namespaced',
        shortNames: ['pdb'],
        subresources: { status: true },
        openAPIV3Schema: obj(
          'PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods',
          {
            spec: obj('Specification of the desired behavior of the PodDisruptionBudget.', {
              minAvailable: intOrString(
                'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction.',
              ),
              maxUnavailable: intOrString(
                'An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction.',
              ),
              selector: labelSelector,
              unhealthyPodEvictionPolicy: s(
                'UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered for eviction.',
              ),
            }),
            status: obj('Most recently observed status of the PodDisruptionBudget.', {
              observedGeneration: {
                type: 'integer',
                format: 'int64',
                description: 'Most recent generation observed when updating this PDB status.',
              },
              disruptedPods: strMap(
                'DisruptedPods contains information about pods whose eviction was processed by the API server eviction subresource handler but has not yet been observed by the PodDisruptionBudget controller.',
                'date-time',
              ),
              disruptionsAllowed: int('Number of pod disruptions that are currently allowed.'),
              currentHealthy: int('current number of healthy pods'),
              desiredHealthy: int('minimum desired number of healthy pods'),
              expectedPods: int('total number of pods counted by this disruption budget'),
              conditions: arr('Conditions contain conditions for PDB.', condition, mergeBy('type')),
            }),
          },
        ),
      },
      {
        validate: (o) => validatePdb(o),
        table: {
          columns: [
            {
              name: 'Min Available',
              type: 'string',
              jsonPath: '.spec.minAvailable',
              description:
                'The minimum number of pods that must be available simultaneously.  This can be either an integer or a string specifying a percentage, e.g. "28%".',
            },
            {
              name: 'Max Unavailable',
              type: 'string',
              jsonPath: '.spec.maxUnavailable',
              description:
                'The maximum number of pods that may be unavailable simultaneously.  This can be either an integer or a string specifying a percentage, e.g. "28%".',
            },
            {
              name: 'Allowed Disruptions',
              type: 'integer',
              jsonPath: '.status.disruptionsAllowed',
              description:
                'Calculated number of pods that may be disrupted at this time given the budget.',
            },
            ageColumn,
          ],
          row: (o) => {
            const spec = objOf(o.spec);
            return [
              intOrNA(spec.minAvailable),
              intOrNA(spec.maxUnavailable),
              num(objOf(o.status).disruptionsAllowed),
              o.metadata.creationTimestamp,
            ];
          },
        },
      },
    ),
  ];
}

/** A Pod's Ready condition is True (podutil.IsPodReady). */
export function isPodReady(pod: KubeObject): boolean {
  return listOf(objOf(pod.status).conditions).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );
}
