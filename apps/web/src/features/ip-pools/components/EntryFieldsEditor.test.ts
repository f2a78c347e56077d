import { describe, expect, it } from 'vitest';
import { entryFieldsSet, entryTexts } from './EntryFieldsEditor';

const entry = {
  ip: '10.0.0.11',
  mask: '24',
  gateway: '10.0.0.1',
  hostname: 'w-1',
  additionNic: [],
  persistentDisk: [],
};

describe('entryFieldsSet (issue 12, R-POOL-4)', () => {
  it('R-POOL-4: sends only the fields that differ, trimmed; an emptied optional field is "" (removed)', () => {
    expect(entryFieldsSet(entry, entryTexts(entry))).toBeUndefined();
    expect(
      entryFieldsSet(entry, {
        ...entryTexts(entry),
        ip: ' 10.0.0.21 ',
        hostname: '',
        dns: '10.0.0.2',
      }),
    ).toEqual({ ip: '10.0.0.21', hostname: '', dns: '10.0.0.2' });
  });
});
