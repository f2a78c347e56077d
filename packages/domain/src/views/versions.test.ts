import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../testing';
import { newestUpgrade, upgradeOffer } from './versions';

// DEMO_CATALOG offers v1.32.8, v1.33.4, v1.34.1 and v1.35.0.
describe('upgradeOffer (U-2, U-3, R-MD-4)', () => {
  it('offers the newer catalog versions, oldest first, up to the control plane', () => {
    expect(upgradeOffer('v1.33.4', DEMO_CATALOG)).toEqual({
      kind: 'offered',
      targets: ['v1.34.1', 'v1.35.0'],
    });
    expect(upgradeOffer('v1.33.4', DEMO_CATALOG, { version: 'v1.34.1' })).toEqual({
      kind: 'offered',
      targets: ['v1.34.1'],
    });
  });

  it('R-MD-4: says the control plane holds a worker back, not that nothing is newer', () => {
    expect(upgradeOffer('v1.33.4', DEMO_CATALOG, { version: 'v1.33.4' })).toEqual({
      kind: 'control-plane-older',
      controlPlaneVersion: 'v1.33.4',
      newest: 'v1.35.0',
    });
    expect(upgradeOffer('v1.33.4', DEMO_CATALOG, { version: undefined })).toEqual({
      kind: 'control-plane-unknown',
      newest: 'v1.35.0',
    });
  });

  it('tells the newest version and an unreadable one apart', () => {
    expect(upgradeOffer('v1.35.0', DEMO_CATALOG, { version: 'v1.35.0' })).toEqual({
      kind: 'newest',
    });
    expect(upgradeOffer('latest', DEMO_CATALOG)).toEqual({ kind: 'version-unknown' });
  });

  it('the card’s indicator is the newest version offered', () => {
    expect(newestUpgrade('v1.33.4', DEMO_CATALOG)).toBe('v1.35.0');
    expect(newestUpgrade('v1.33.4', DEMO_CATALOG, { version: 'v1.34.1' })).toBe('v1.34.1');
    expect(newestUpgrade('v1.33.4', DEMO_CATALOG, { version: 'v1.33.4' })).toBeUndefined();
    expect(newestUpgrade('v1.33.4', DEMO_CATALOG, { version: undefined })).toBeUndefined();
  });
});
