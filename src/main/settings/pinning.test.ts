import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { DeploymentPinning } from './pinning';
import { SettingsService } from './settings-service';

const FACTS = {
  chainId: '31337',
  verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  domainName: 'Service Exchange',
};

function setup() {
  const store = createMemoryStore();
  const settings = new SettingsService({ store });
  return { store, settings, pinning: new DeploymentPinning(settings, () => 1_700_000_000_000) };
}

describe('DeploymentPinning', () => {
  it('pins on first use, then matches ignoring address case', () => {
    const { pinning } = setup();
    expect(pinning.checkPin('devnet', FACTS)).toEqual({ kind: 'pinned-now' });
    expect(pinning.pinFor('devnet')).toEqual({ ...FACTS, pinnedAt: '2023-11-14T22:13:20.000Z' });
    expect(pinning.checkPin('devnet', { ...FACTS, verifyingContract: FACTS.verifyingContract.toLowerCase() })).toEqual({ kind: 'match' });
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
  });

  it('holds a change as pending, blocks signing with a sentence naming it, until accepted', () => {
    const { pinning, store, settings } = setup();
    pinning.checkPin('devnet', FACTS);
    const observed = { ...FACTS, verifyingContract: '0x0000000000000000000000000000000000000001', domainName: 'Other' };
    expect(pinning.checkPin('devnet', observed)).toEqual({ kind: 'changed', pinned: FACTS, observed });

    let err: unknown;
    try {
      pinning.assertSigningAllowed('devnet');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as SettingsError).code).toBe('PIN_CHANGED');
    expect((err as SettingsError).message).toBe(
      'Signing for Local devnet is paused: its signing domain changed (exchange contract ' +
        '0x5FbDB2315678afecb367f032d93F642f64180aa3 → 0x0000000000000000000000000000000000000001, ' +
        'domain name "Service Exchange" → "Other"). Accept the change only if you expected it.',
    );
    // Pending survives a restart.
    const restarted = new DeploymentPinning(new SettingsService({ store }));
    expect(() => restarted.assertSigningAllowed('devnet')).toThrow(/paused/);
    // Still the old pin until accepted.
    expect(pinning.pinFor('devnet')).toMatchObject(FACTS);

    pinning.acceptPin('devnet', observed);
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
    expect(pinning.checkPin('devnet', observed)).toEqual({ kind: 'match' });
    expect(settings.getSettings().pendingPinChanges).toEqual({});
  });

  it('clears a pending change when the deployment returns to the pinned facts', () => {
    const { pinning } = setup();
    pinning.checkPin('devnet', FACTS);
    pinning.checkPin('devnet', { ...FACTS, chainId: '1' });
    expect(() => pinning.assertSigningAllowed('devnet')).toThrow(/chain id 31337 → 1/);
    expect(pinning.checkPin('devnet', FACTS)).toEqual({ kind: 'match' });
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
  });

  it('keeps deployments apart and validates observed facts', () => {
    const { pinning } = setup();
    pinning.checkPin('devnet', FACTS);
    expect(pinning.checkPin('staging', { ...FACTS, chainId: '8453' })).toEqual({ kind: 'pinned-now' });
    expect(() => pinning.checkPin('devnet', { ...FACTS, verifyingContract: '0x12' })).toThrow(/verifyingContract/);
    expect(() => pinning.checkPin('devnet', { ...FACTS, chainId: '-1' })).toThrow(SettingsError);
  });
});
