/**
 * The two Event APIs: core/v1 Event, where both are stored, and events.k8s.io/v1 Event, served
 * by converting to and from it as kube-apiserver does (the conversion, the events.k8s.io
 * validation and both `kubectl get events` tables).
 */
import { isObject, put } from '../json';
import { resolveKind, type ResourceType } from '../registry';
import { fieldError, type FieldError } from '../status';
import type { KubeObject } from '../types';
import { int, obj, objectReference, preserved, s } from './schema';

/** core/v1 Event, where both Event APIs are stored. */
function coreEventKind(): ResourceType {
  return resolveKind(
    {
      group: '',
      version: 'v1',
      kind: 'Event',
      plural: 'events',
      scope: 'Namespaced',
      shortNames: ['ev'],
      selectableFields: [
        'involvedObject.kind',
        'involvedObject.namespace',
        'involvedObject.name',
        'involvedObject.uid',
        'involvedObject.apiVersion',
        'involvedObject.resourceVersion',
        'involvedObject.fieldPath',
        'reason',
        'reportingComponent',
        'source',
        'type',
      ],
      openAPIV3Schema: obj(
        'Event is a report of an event somewhere in the cluster.',
        {
          involvedObject: objectReference,
          reason: s(
            "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
          ),
          message: s('A human-readable description of the status of this operation.'),
          type: s('Type of this event (Normal, Warning), new types could be added in the future'),
          count: int('The number of times this event has occurred.'),
          firstTimestamp: s('The time at which the event was first recorded.', {
            format: 'date-time',
          }),
          lastTimestamp: s(
            'The time at which the most recent occurrence of this event was recorded.',
            { format: 'date-time' },
          ),
          eventTime: s('Time when this Event was first observed.', {
            format: 'date-time',
            nullable: true,
          }),
          source: obj('The component reporting this event.', {
            component: s('Component from which the event is generated.'),
            host: s('Node name on which the event is generated.'),
          }),
          reportingComponent: s('Name of the controller that emitted this Event.'),
          reportingInstance: s('ID of the controller instance.'),
          action: s('What action was taken/failed regarding to the Regarding object.'),
          related: objectReference,
          series: preserved('Data about the Event series this event represents.'),
        },
        ['involvedObject'],
      ),
    },
    {
      generation: false,
      table: eventTable({
        lastSeen: { jsonPath: '.lastTimestamp', description: 'Time since the last occurrence' },
        object: 'involvedObject',
        message: 'message',
        seen: (o) => o.lastTimestamp ?? o.eventTime,
      }),
    },
  );
}

/**
 * events.k8s.io/v1 Event, the API that controllers (and the console's audit recorder) write
 * today. As in kube-apiserver, it is the same resource as core/v1 Event seen through another
 * API: stored as a core Event, converted on every read, list and watch event, so an Event
 * created through either API is read, listed and watched through both, under one name and one
 * resourceVersion.
 */
function eventsV1Kind(core: ResourceType): ResourceType {
  return resolveKind(
    {
      group: 'events.k8s.io',
      version: 'v1',
      kind: 'Event',
      plural: 'events',
      scope: 'Namespaced',
      shortNames: ['ev'],
      selectableFields: [
        'regarding.kind',
        'regarding.namespace',
        'regarding.name',
        'regarding.uid',
        'reason',
        'reportingController',
        'type',
      ],
      openAPIV3Schema: obj(
        'Event is a report of an event somewhere in the cluster (events.k8s.io/v1).',
        {
          eventTime: s('The time at which the event was first observed.', {
            format: 'date-time',
          }),
          series: preserved('Data about the Event series this event represents.'),
          reportingController: s('The name of the controller that emitted this Event.'),
          reportingInstance: s('The ID of the controller instance.'),
          action: s('What action was taken/failed regarding the regarding object.'),
          reason: s('Why the action was taken.'),
          regarding: objectReference,
          related: objectReference,
          note: s('A human-readable description of the status of this operation.'),
          type: s('Type of this event (Normal, Warning).'),
          deprecatedSource: preserved('The deprecated field assuring backward compatibility.'),
          deprecatedFirstTimestamp: s('Deprecated field assuring backward compatibility.', {
            format: 'date-time',
          }),
          deprecatedLastTimestamp: s('Deprecated field assuring backward compatibility.', {
            format: 'date-time',
          }),
          deprecatedCount: int('Deprecated field assuring backward compatibility.'),
        },
        ['eventTime'],
      ),
    },
    {
      generation: false,
      table: eventTable({
        lastSeen: { jsonPath: '.eventTime', description: 'Time of the event' },
        object: 'regarding',
        message: 'note',
        seen: (o) => (isObject(o.series) ? o.series.lastObservedTime : undefined) ?? o.eventTime,
      }),
      validate: validateEventV1,
      storedAs: { rt: core, toStorage: eventV1ToCore, fromStorage: coreEventToV1 },
    },
  );
}

/**
 * `kubectl get events`' table, the same for both Event APIs but for the names of the fields
 * that hold the object, the message and when it was last seen.
 */
function eventTable(f: {
  lastSeen: { jsonPath: string; description: string };
  object: 'involvedObject' | 'regarding';
  message: 'message' | 'note';
  seen: (o: KubeObject) => unknown;
}): NonNullable<ResourceType['table']> {
  return {
    columns: [
      { name: 'Last Seen', type: 'date', ...f.lastSeen },
      { name: 'Type', type: 'string', jsonPath: '.type' },
      { name: 'Reason', type: 'string', jsonPath: '.reason' },
      { name: 'Object', type: 'string', jsonPath: `.${f.object}` },
      { name: 'Message', type: 'string', jsonPath: `.${f.message}` },
    ],
    row: (o) => {
      const held = o[f.object];
      const ref = isObject(held) ? held : {};
      return [
        f.seen(o) ?? o.metadata.creationTimestamp,
        o.type,
        o.reason,
        `${typeof ref.kind === 'string' ? ref.kind.toLowerCase() : ''}/${typeof ref.name === 'string' ? ref.name : ''}`,
        o[f.message],
      ];
    },
  };
}

/** Both Event APIs, the second stored as the first. */
export function eventKinds(): ResourceType[] {
  const core = coreEventKind();
  return [core, eventsV1Kind(core)];
}

/**
 * The fields the two Event APIs name differently, core/v1 name first: upstream's conversion
 * (k8s.io/kubernetes pkg/apis/events/v1, Convert_v1_Event_To_core_Event and back) renames these
 * and copies eventTime, series, reportingInstance, action, reason, related and type as they are.
 * core/v1's `reportingComponent` is the JSON name of the ReportingController field.
 */
const EVENT_RENAMES: readonly (readonly [core: string, v1: string])[] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];
const CORE_TO_V1 = new Map(EVENT_RENAMES.map(([c, v]) => [c, v]));
const V1_TO_CORE = new Map(EVENT_RENAMES.map(([c, v]) => [v, c]));

function renameEvent(
  o: KubeObject,
  names: ReadonlyMap<string, string>,
  apiVersion: string,
): KubeObject {
  const out: KubeObject = { apiVersion, kind: 'Event', metadata: o.metadata };
  for (const key of Object.keys(o)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
    put(out, names.get(key) ?? key, o[key]);
  }
  return out;
}

/** An events.k8s.io/v1 Event as core/v1 stores it (involvedObject is required there: `{}` when absent). */
export function eventV1ToCore(o: KubeObject): KubeObject {
  const out = renameEvent(o, V1_TO_CORE, 'v1');
  if (!isObject(out.involvedObject)) out.involvedObject = {};
  return out;
}

/** A stored core/v1 Event as events.k8s.io/v1 serves it. */
export function coreEventToV1(o: KubeObject): KubeObject {
  return renameEvent(o, CORE_TO_V1, 'events.k8s.io/v1');
}

/**
 * What kube-apiserver's events.k8s.io/v1 validation requires of an Event: eventTime,
 * reportingController, reportingInstance, action and reason (each at most 128 characters), a
 * Normal or Warning type, and a note of at most 1 KiB.
 */
function validateEventV1(o: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of [
    'eventTime',
    'reportingController',
    'reportingInstance',
    'action',
    'reason',
  ]) {
    const v = o[field];
    if (typeof v !== 'string' || v === '') errors.push(fieldError.required(field));
    else if (field !== 'eventTime' && v.length > 128) errors.push(fieldError.tooLong(field, 128));
  }
  if (o.type !== 'Normal' && o.type !== 'Warning')
    errors.push(fieldError.notSupported('type', o.type, ['Normal', 'Warning']));
  if (typeof o.note === 'string' && o.note.length > 1024)
    errors.push(fieldError.tooLong('note', 1024));
  return errors;
}
