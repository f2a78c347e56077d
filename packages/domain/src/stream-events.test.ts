import { describe, expect, it } from 'vitest';
import { parseStreamEvent } from './stream-events';

describe('parseStreamEvent', () => {
  it('reads view changes and resyncs as the BFF writes them', () => {
    expect(parseStreamEvent('{"type":"upsert","kind":"pool","id":"p","view":{"id":"p"}}')).toEqual({
      type: 'upsert',
      kind: 'pool',
      id: 'p',
      view: { id: 'p' },
    });
    expect(parseStreamEvent('{"type":"delete","kind":"machine","id":"m"}')).toEqual({
      type: 'delete',
      kind: 'machine',
      id: 'm',
    });
    expect(parseStreamEvent('{"type":"resync","reason":"gap"}')).toEqual({
      type: 'resync',
      reason: 'gap',
    });
  });

  it('still resyncs on a reason it does not know; ignores what it cannot read', () => {
    expect(parseStreamEvent('{"type":"resync","reason":"newer"}')).toEqual({ type: 'resync' });
    expect(parseStreamEvent('{"type":"upsert","kind":"node","id":"x","view":{}}')).toBeUndefined();
    expect(parseStreamEvent('{"type":"upsert","kind":"pool","id":"x"}')).toBeUndefined();
    expect(parseStreamEvent('{"type":"delete","kind":"pool"}')).toBeUndefined();
    expect(parseStreamEvent('not json')).toBeUndefined();
    expect(parseStreamEvent('null')).toBeUndefined();
  });
});
