/**
 * Server-side `Table` responses (meta.k8s.io/v1), built the way kube-apiserver's CRD table
 * convertor builds them: a Name column first, then each printer column in order (with its
 * priority, so that kubectl shows priority > 0 only with `-o wide`), dates rendered as
 * human durations ("5m"), missing values as null (kubectl prints `<none>`).
 */
import { isObject } from './json';
import { getJsonPath } from './jsonpath';
import type { ResourceType } from './registry';
import type { Stored } from './store/stored';
import type { KubeObject, PrinterColumn } from './types';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

function columnsOf(rt: ResourceType): readonly PrinterColumn[] {
  return rt.table?.columns ?? rt.printerColumns;
}

export function columnDefinitions(rt: ResourceType): Record<string, unknown>[] {
  return [
    NAME_COLUMN,
    ...columnsOf(rt).map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    })),
  ];
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    const y = Math.floor(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

function rawCells(rt: ResourceType, obj: KubeObject): unknown[] {
  if (rt.table) return rt.table.row(obj);
  return rt.printerColumns.map((c) => {
    const found = getJsonPath(obj, c.jsonPath);
    return found.length === 0 ? null : found[0];
  });
}

function render(col: PrinterColumn, v: unknown, now: number): unknown {
  if (v === undefined || v === null) return null;
  switch (col.type) {
    case 'date': {
      if (typeof v !== 'string') return null;
      const t = Date.parse(v);
      return Number.isNaN(t) ? v : humanDuration(now - t);
    }
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : v;
    case 'number':
    case 'boolean':
      return v;
    default:
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      // kubectl's JSONPath printer renders objects and lists as JSON.
      return JSON.stringify(v);
  }
}

function partialMetadata(obj: KubeObject): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** One row; printer-column values are cached on the stored version, dates rendered per request. */
export function tableRow(
  rt: ResourceType,
  s: Stored,
  include: IncludeObject,
  now = Date.now(),
): Record<string, unknown> {
  let obj: KubeObject | undefined;
  if (!s.cells) {
    obj = s.object();
    s.cells = rawCells(rt, obj);
  }
  const cols = columnsOf(rt);
  const cells = [s.name, ...cols.map((c, i) => render(c, s.cells?.[i], now))];
  const row: Record<string, unknown> = { cells };
  if (include !== 'None') {
    obj ??= s.object();
    row.object = include === 'Object' ? obj : partialMetadata(obj);
  }
  return row;
}

export function table(
  rt: ResourceType,
  items: readonly Stored[],
  include: IncludeObject,
  listMeta: Record<string, unknown>,
  withHeaders = true,
): Record<string, unknown> {
  const now = Date.now();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: withHeaders ? columnDefinitions(rt) : null,
    rows: items.map((s) => tableRow(rt, s, include, now)),
  };
}

export function isPartialMetadataRequest(
  accept: string,
): 'PartialObjectMetadata' | 'PartialObjectMetadataList' | undefined {
  const m = /as=(PartialObjectMetadata(?:List)?)/.exec(accept);
  const kind = m?.[1];
  return kind === 'PartialObjectMetadata' || kind === 'PartialObjectMetadataList'
    ? kind
    : undefined;
}

export function toPartial(obj: KubeObject): Record<string, unknown> {
  return partialMetadata(obj);
}

export { isObject };
