import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { DeploymentPinning, describePinChange } from './pinning';
import { SettingsService } from './settings-service';

const SPENDERS = {
  depositLedger: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  settlementToken: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  permit2: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
};
const FACTS = {
  chainId: '31337',
  verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  domainName: 'Service Exchange',
  spenders: SPENDERS,
};

function setup() {
  const store = createMemoryStore();
  const settings = new SettingsService({ store });
  return { store, settings, pinning: new DeploymentPinning(settings, () => 1_700_000_000_000) };
}

function errorOf(fn: () => void): SettingsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SettingsError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('DeploymentPinning', () => {
  it('holds the first facts until a person confirms them: nothing is signed before', () => {
    const { pinning, settings } = setup();
    expect(errorOf(() => pinning.assertSigningAllowed('devnet'))).toMatchObject({
      code: 'PIN_UNCONFIRMED',
      message: expect.stringMatching(/until it has answered once/) as string,
    });
    expect(pinning.checkPin('devnet', FACTS)).toEqual({ kind: 'unconfirmed', observed: FACTS });
    expect(pinning.pinFor('devnet')).toBeNull();
    expect(settings.getSettings().pendingPinChanges['devnet']).toEqual(FACTS);
    expect(errorOf(() => pinning.assertSigningAllowed('devnet'))).toMatchObject({
      code: 'PIN_UNCONFIRMED',
      message: 'Nothing is signed for "Local devnet" until you confirm its signing domain and token contracts.',
    });
    pinning.acceptPin('devnet', FACTS);
    expect(pinning.pinFor('devnet')).toEqual({ ...FACTS, pinnedAt: '2023-11-14T22:13:20.000Z' });
    expect(settings.getSettings().pendingPinChanges).toEqual({});
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
  });

  it('pins on first use only when told to (facts from the launcher), then matches ignoring address case', () => {
    const { pinning } = setup();
    expect(pinning.checkPin('devnet', FACTS, { trustFirstUse: true })).toEqual({ kind: 'pinned-now' });
    const lower = {
      ...FACTS,
      verifyingContract: FACTS.verifyingContract.toLowerCase(),
      spenders: { ...SPENDERS, permit2: SPENDERS.permit2.toLowerCase() },
    };
    expect(pinning.checkPin('devnet', lower)).toEqual({ kind: 'match' });
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
  });

  it('holds a change as pending, blocks signing with a sentence naming it, until accepted', () => {
    const { pinning, store, settings } = setup();
    pinning.checkPin('devnet', FACTS, { trustFirstUse: true });
    const observed = { ...FACTS, verifyingContract: '0x0000000000000000000000000000000000000001', domainName: 'Other' };
    expect(pinning.checkPin('devnet', observed)).toEqual({ kind: 'changed', pinned: FACTS, observed });

    const err = errorOf(() => pinning.assertSigningAllowed('devnet'));
    expect(err.code).toBe('PIN_CHANGED');
    expect(err.message).toBe(
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

  it('pins the spenders: a new deposit ledger, token or Permit2 address is a pin change', () => {
    const { pinning } = setup();
    pinning.checkPin('devnet', FACTS, { trustFirstUse: true });
    for (const [key, label] of [
      ['depositLedger', 'deposit ledger'],
      ['settlementToken', 'settlement token'],
      ['permit2', 'Permit2'],
    ] as const) {
      const observed = { ...FACTS, spenders: { ...SPENDERS, [key]: '0x00000000000000000000000000000000000000aa' } };
      expect(pinning.checkPin('devnet', observed)).toMatchObject({ kind: 'changed' });
      expect(() => pinning.assertSigningAllowed('devnet')).toThrow(
        new RegExp(`${label} ${SPENDERS[key]} → 0x00000000000000000000000000000000000000aa`),
      );
      expect(pinning.checkPin('devnet', FACTS)).toEqual({ kind: 'match' });
    }
    const gone = { ...FACTS, spenders: { ...SPENDERS, permit2: null } };
    expect(pinning.checkPin('devnet', gone)).toMatchObject({ kind: 'changed' });
    expect(describePinChange(FACTS, gone)).toBe(`Permit2 ${SPENDERS.permit2} → none`);
  });

  it('asks again for a pin written before spenders were pinned', () => {
    const { pinning, settings } = setup();
    const { spenders: _s, ...legacy } = FACTS;
    settings.writePins({ devnet: { ...legacy, pinnedAt: '2023-01-01T00:00:00.000Z' } }, {});
    expect(pinning.checkPin('devnet', FACTS)).toMatchObject({ kind: 'changed' });
    expect(() => pinning.assertSigningAllowed('devnet')).toThrow(/token contracts not pinned before/);
  });

  it('clears a pending change when the deployment returns to the pinned facts', () => {
    const { pinning } = setup();
    pinning.checkPin('devnet', FACTS, { trustFirstUse: true });
    pinning.checkPin('devnet', { ...FACTS, chainId: '1' });
    expect(() => pinning.assertSigningAllowed('devnet')).toThrow(/chain id 31337 → 1/);
    expect(pinning.checkPin('devnet', FACTS)).toEqual({ kind: 'match' });
    expect(() => pinning.assertSigningAllowed('devnet')).not.toThrow();
  });

  it('keeps deployments apart, forgets a removed one, and validates observed facts', () => {
    const { pinning } = setup();
    pinning.checkPin('devnet', FACTS, { trustFirstUse: true });
    expect(pinning.checkPin('staging', { ...FACTS, chainId: '8453' })).toEqual({
      kind: 'unconfirmed',
      observed: { ...FACTS, chainId: '8453' },
    });
    pinning.forget('staging');
    expect(pinning.pinFor('devnet')).not.toBeNull();
    expect(() => pinning.assertSigningAllowed('staging')).toThrow(/until it has answered once/);
    expect(() => pinning.checkPin('devnet', { ...FACTS, verifyingContract: '0x12' })).toThrow(/verifyingContract/);
    expect(() => pinning.checkPin('devnet', { ...FACTS, chainId: '-1' })).toThrow(SettingsError);
  });
});
