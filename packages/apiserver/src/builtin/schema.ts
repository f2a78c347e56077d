/**
 * Builders for the abridged OpenAPI schemas of the built-in kinds, and the schema parts that more
 * than one of them uses. Shared by the kinds' module and the Event APIs' module.
 */
import type { JSONSchemaProps } from '../types';

export const s = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'string',
  description,
  ...extra,
});
export const int = (description: string): JSONSchemaProps => ({
  type: 'integer',
  format: 'int32',
  description,
});
export const bool = (description: string): JSONSchemaProps => ({ type: 'boolean', description });
export const obj = (
  description: string,
  properties: Record<string, JSONSchemaProps>,
  required?: string[],
): JSONSchemaProps => {
  const out: JSONSchemaProps = { type: 'object', description, properties };
  if (required) out.required = required;
  return out;
};
export const arr = (
  description: string,
  items: JSONSchemaProps,
  extra: JSONSchemaProps = {},
): JSONSchemaProps => ({
  type: 'array',
  description,
  items,
  ...extra,
});
export const strMap = (description: string, format?: string): JSONSchemaProps => ({
  type: 'object',
  description,
  additionalProperties: format ? { type: 'string', format } : { type: 'string' },
});
export const preserved = (description: string): JSONSchemaProps => ({
  type: 'object',
  description,
  'x-kubernetes-preserve-unknown-fields': true,
});
export const mergeBy = (key: string): JSONSchemaProps => ({
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': [key],
});

export const objectReference = obj(
  'ObjectReference contains enough information to let you inspect or modify the referred object.',
  {
    apiVersion: s('API version of the referent.'),
    kind: s('Kind of the referent.'),
    name: s('Name of the referent.'),
    namespace: s('Namespace of the referent.'),
    uid: s('UID of the referent.'),
    resourceVersion: s('Specific resourceVersion to which this reference is made, if any.'),
    fieldPath: s('If referring to a piece of an object instead of an entire object.'),
  },
);

export const labelSelector = obj('A label query over a set of resources.', {
  matchLabels: strMap('matchLabels is a map of {key,value} pairs.'),
  matchExpressions: arr(
    'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
    obj(
      'A label selector requirement.',
      {
        key: s('The label key.'),
        operator: s('In, NotIn, Exists or DoesNotExist.'),
        values: arr('Values.', s('')),
      },
      ['key', 'operator'],
    ),
  ),
});

export const container = obj(
  'A single application container that you want to run within a pod.',
  {
    name: s('Name of the container specified as a DNS_LABEL.'),
    image: s('Container image name.'),
    command: arr('Entrypoint array.', s('')),
    args: arr('Arguments to the entrypoint.', s('')),
    env: arr(
      'List of environment variables to set in the container.',
      obj(
        'EnvVar',
        { name: s('Name'), value: s('Value'), valueFrom: preserved('Source for the value.') },
        ['name'],
      ),
      mergeBy('name'),
    ),
    ports: arr(
      'List of ports to expose from the container.',
      obj(
        'ContainerPort',
        { containerPort: int('Port number.'), name: s('Name'), protocol: s('Protocol') },
        ['containerPort'],
      ),
      mergeBy('containerPort'),
    ),
    resources: preserved('Compute Resources required by this container.'),
    volumeMounts: arr(
      'Pod volumes to mount into the container.',
      preserved('VolumeMount'),
      mergeBy('mountPath'),
    ),
    imagePullPolicy: s('Image pull policy.'),
    workingDir: s("Container's working directory."),
    envFrom: arr(
      'Sources to populate environment variables in the container.',
      preserved('EnvFromSource'),
    ),
    livenessProbe: preserved('Periodic probe of container liveness.'),
    readinessProbe: preserved('Periodic probe of container service readiness.'),
    startupProbe: preserved('StartupProbe indicates that the Pod has successfully initialized.'),
    lifecycle: preserved(
      'Actions that the management system should take in response to container lifecycle events.',
    ),
    securityContext: preserved(
      'SecurityContext defines the security options the container should be run with.',
    ),
    terminationMessagePath: s(
      "Path at which the file to which the container's termination message will be written is mounted.",
    ),
    terminationMessagePolicy: s('Indicate how the termination message should be populated.'),
    stdin: bool('Whether this container should allocate a buffer for stdin.'),
    tty: bool('Whether this container should allocate a TTY for itself.'),
  },
  ['name'],
);

/** The PodSpec fields a template and a Pod share (a Pod adds what only a scheduled Pod has). */
export const podSpecFields: Record<string, JSONSchemaProps> = {
  containers: arr('List of containers belonging to the pod.', container, mergeBy('name')),
  initContainers: arr('List of initialization containers.', container, mergeBy('name')),
  volumes: arr('List of volumes.', preserved('Volume'), mergeBy('name')),
  nodeSelector: strMap('NodeSelector'),
  serviceAccountName: s('ServiceAccountName'),
  tolerations: arr('Tolerations', preserved('Toleration')),
  affinity: preserved('Affinity'),
};

export const podTemplate = obj(
  'PodTemplateSpec describes the data a pod should have when created from a template.',
  {
    metadata: preserved('Standard object metadata.'),
    spec: {
      ...obj('PodSpec is a description of a pod.', { ...podSpecFields }),
      'x-kubernetes-preserve-unknown-fields': true,
    },
  },
);
