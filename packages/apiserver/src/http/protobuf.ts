/**
 * Decoding of `application/vnd.kubernetes.protobuf` request bodies for the built-in kinds that
 * kubectl's typed clients send that way (`kubectl auth can-i`, `auth whoami`, `create namespace /
 * configmap / secret / serviceaccount / role / rolebinding / clusterrole / clusterrolebinding`).
 * Those clients also accept JSON, which is what every response is. The field numbers are those of
 * k8s.io/api's generated.proto files.
 */
import { put } from '../json';
import { badRequest } from '../status';

type FieldType = 'string' | 'bytes' | 'bool' | 'int' | 'time' | 'map' | 'mapBytes' | Schema;
interface Field {
  name: string;
  type: FieldType;
  repeated?: boolean;
}
interface Schema {
  fields: Record<number, Field>;
}

const s = (name: string): Field => ({ name, type: 'string' });
const rs = (name: string): Field => ({ name, type: 'string', repeated: true });
const msg = (name: string, schema: Schema, repeated = false): Field => ({
  name,
  type: schema,
  repeated,
});

const ownerReference: Schema = {
  fields: {
    1: s('kind'),
    3: s('name'),
    4: s('uid'),
    5: s('apiVersion'),
    6: { name: 'controller', type: 'bool' },
    7: { name: 'blockOwnerDeletion', type: 'bool' },
  },
};
const objectMeta: Schema = {
  fields: {
    1: s('name'),
    2: s('generateName'),
    3: s('namespace'),
    5: s('uid'),
    6: s('resourceVersion'),
    7: { name: 'generation', type: 'int' },
    8: { name: 'creationTimestamp', type: 'time' },
    11: { name: 'labels', type: 'map' },
    12: { name: 'annotations', type: 'map' },
    13: msg('ownerReferences', ownerReference, true),
    14: rs('finalizers'),
  },
};
const policyRule: Schema = {
  fields: {
    1: rs('verbs'),
    2: rs('apiGroups'),
    3: rs('resources'),
    4: rs('resourceNames'),
    5: rs('nonResourceURLs'),
  },
};
const subject: Schema = {
  fields: { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') },
};
const roleRef: Schema = { fields: { 1: s('apiGroup'), 2: s('kind'), 3: s('name') } };
const resourceAttributes: Schema = {
  fields: {
    1: s('namespace'),
    2: s('verb'),
    3: s('group'),
    4: s('version'),
    5: s('resource'),
    6: s('subresource'),
    7: s('name'),
  },
};
const nonResourceAttributes: Schema = { fields: { 1: s('path'), 2: s('verb') } };
const localRef: Schema = { fields: { 1: s('name') } };
const objectReference: Schema = {
  fields: {
    1: s('kind'),
    2: s('namespace'),
    3: s('name'),
    4: s('uid'),
    5: s('apiVersion'),
    6: s('resourceVersion'),
    7: s('fieldPath'),
  },
};
const meta = msg('metadata', objectMeta);

const SCHEMAS: Record<string, Schema> = {
  'v1/Namespace': { fields: { 1: meta, 2: msg('spec', { fields: { 1: rs('finalizers') } }) } },
  'v1/ConfigMap': {
    fields: {
      1: meta,
      2: { name: 'data', type: 'map' },
      3: { name: 'binaryData', type: 'mapBytes' },
      4: { name: 'immutable', type: 'bool' },
    },
  },
  'v1/Secret': {
    fields: {
      1: meta,
      2: { name: 'data', type: 'mapBytes' },
      3: s('type'),
      4: { name: 'stringData', type: 'map' },
      5: { name: 'immutable', type: 'bool' },
    },
  },
  'v1/ServiceAccount': {
    fields: {
      1: meta,
      2: msg('secrets', objectReference, true),
      3: msg('imagePullSecrets', localRef, true),
      4: { name: 'automountServiceAccountToken', type: 'bool' },
    },
  },
  'rbac.authorization.k8s.io/v1/Role': { fields: { 1: meta, 2: msg('rules', policyRule, true) } },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    fields: { 1: meta, 2: msg('rules', policyRule, true) },
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    fields: { 1: meta, 2: msg('subjects', subject, true), 3: msg('roleRef', roleRef) },
  },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    fields: { 1: meta, 2: msg('subjects', subject, true), 3: msg('roleRef', roleRef) },
  },
  'authorization.k8s.io/v1/SelfSubjectAccessReview': {
    fields: {
      1: meta,
      2: msg('spec', {
        fields: {
          1: msg('resourceAttributes', resourceAttributes),
          2: msg('nonResourceAttributes', nonResourceAttributes),
        },
      }),
    },
  },
  'authorization.k8s.io/v1/SelfSubjectRulesReview': {
    fields: { 1: meta, 2: msg('spec', { fields: { 1: s('namespace') } }) },
  },
  'authorization.k8s.io/v1/SubjectAccessReview': {
    fields: {
      1: meta,
      2: msg('spec', {
        fields: {
          1: msg('resourceAttributes', resourceAttributes),
          2: msg('nonResourceAttributes', nonResourceAttributes),
          3: s('user'),
          4: rs('groups'),
          6: s('uid'),
        },
      }),
    },
  },
  'authorization.k8s.io/v1/LocalSubjectAccessReview': {
    fields: {
      1: meta,
      2: msg('spec', {
        fields: {
          1: msg('resourceAttributes', resourceAttributes),
          2: msg('nonResourceAttributes', nonResourceAttributes),
          3: s('user'),
          4: rs('groups'),
          6: s('uid'),
        },
      }),
    },
  },
  'authentication.k8s.io/v1/SelfSubjectReview': { fields: { 1: meta } },
};

const unknownEnvelope: Schema = {
  fields: {
    1: msg('typeMeta', { fields: { 1: s('apiVersion'), 2: s('kind') } }),
    2: { name: 'raw', type: 'bytes' },
  },
};

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw badRequest('protobuf: truncated varint');
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }
  bytes(): Buffer {
    const len = this.varint();
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}

type Decoded = Record<string, unknown>;

function decode(buf: Buffer, schema: Schema): Decoded {
  const r = new Reader(buf);
  const out: Decoded = {};
  while (r.pos < buf.length) {
    const key = r.varint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    const field = schema.fields[num];
    let value: unknown;
    if (wire === 0) value = r.varint();
    else if (wire === 2) value = r.bytes();
    else if (wire === 1) r.pos += 8;
    else if (wire === 5) r.pos += 4;
    else throw badRequest(`protobuf: unsupported wire type ${wire}`);
    if (!field || value === undefined) continue;
    const v = convert(value, field.type);
    if (field.type === 'map' || field.type === 'mapBytes') {
      const m = (out[field.name] as Record<string, unknown> | undefined) ?? {};
      // A map entry's key is data: `put` stores `__proto__` as a key, as Object.assign would not.
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) put(m, k, x);
      out[field.name] = m;
    } else if (field.repeated) {
      const list = (out[field.name] as unknown[] | undefined) ?? [];
      list.push(v);
      out[field.name] = list;
    } else out[field.name] = v;
  }
  return out;
}

function convert(value: unknown, type: FieldType): unknown {
  const buf = Buffer.isBuffer(value) ? value : Buffer.alloc(0);
  switch (type) {
    case 'string':
      return buf.toString('utf8');
    case 'bytes':
      return buf;
    case 'bool':
      return value === 1;
    case 'int':
      return value;
    case 'time': {
      const t = decode(buf, { fields: { 1: { name: 'seconds', type: 'int' } } });
      return new Date(Number(t.seconds ?? 0) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    }
    case 'map':
    case 'mapBytes': {
      const e = decode(buf, {
        fields: {
          1: { name: 'k', type: 'string' },
          2: { name: 'v', type: type === 'map' ? 'string' : 'bytes' },
        },
      });
      const v = e.v;
      return {
        [typeof e.k === 'string' ? e.k : '']: Buffer.isBuffer(v) ? v.toString('base64') : (v ?? ''),
      };
    }
    default:
      return decode(buf, type);
  }
}

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Decodes a protobuf body of the kind `apiVersion/kind`, or throws 415 for kinds not covered. */
export function decodeProtobuf(
  raw: Buffer,
  apiVersion: string,
  kind: string,
): Record<string, unknown> {
  const schema = SCHEMAS[`${apiVersion}/${kind}`];
  if (!schema || !raw.subarray(0, 4).equals(MAGIC)) {
    throw badRequest(`protobuf is not supported for ${kind}; send application/json`);
  }
  const envelope = decode(raw.subarray(4), unknownEnvelope);
  const inner = envelope.raw;
  const obj = decode(Buffer.isBuffer(inner) ? inner : Buffer.alloc(0), schema);
  return { apiVersion, kind, ...obj };
}

export function hasProtobuf(apiVersion: string, kind: string): boolean {
  return `${apiVersion}/${kind}` in SCHEMAS;
}
