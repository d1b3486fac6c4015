/* eslint-disable @typescript-eslint/no-unsafe-assignment -- vitest asymmetric matchers (expect.any, expect.stringMatching) are typed any */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent, BridgeOutcome } from '../../shared/bridge';
import { OrderGate } from './risk/order-gate';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../../../test/support/test-core';

let t: TestCore;
let events: { event: BridgeEvent; payload: unknown }[];

const DEMO = Wallet.createRandom();
const DEMO_ACCOUNT = { label: 'Demo 1', address: DEMO.address, privateKey: DEMO.privateKey };

beforeEach(async () => {
  t = await createTestCore({ devnetAccounts: [DEMO_ACCOUNT] });
  events = [];
  for (const event of ['lock', 'keys', 'settings', 'connection'] as const) {
    t.core.on(event, (payload) => events.push({ event, payload }));
  }
});
afterEach(() => t.close());

async function ok<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
  const outcome = await t.core.invoke(method, args);
  if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value as T;
}

async function err(method: string, ...args: unknown[]): Promise<{ code: string; message: string }> {
  const outcome: BridgeOutcome = await t.core.invoke(method, args);
  if (outcome.ok) throw new Error(`${method} unexpectedly succeeded`);
  return outcome.error;
}

const unlockWithNewPassword = () => ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });

describe('lock', () => {
  it('needs a password on the file vault, then locks and unlocks with events', async () => {
    expect(await ok('lock.status')).toMatchObject({
      locked: true,
      hasPassword: false,
      backend: 'file',
      throttledUntil: null,
    });
    expect(await err('keys.create', {})).toMatchObject({
      code: 'vault.password_required',
      message: expect.stringMatching(/set a vault password/),
    });
    expect(await err('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: 'something else' })).toEqual({
      code: 'vault.password_mismatch',
      message: 'The two passwords do not match.',
    });

    expect(await unlockWithNewPassword()).toMatchObject({ locked: false, hasPassword: true });
    expect(await ok('lock.lock')).toMatchObject({ locked: true });
    expect(await err('keys.create', {})).toMatchObject({ code: 'vault.locked' });
    expect(await ok('lock.unlock', TEST_PASSWORD)).toMatchObject({ locked: false });
    expect(events.filter((e) => e.event === 'lock').map((e) => (e.payload as { locked: boolean }).locked)).toEqual([
      false,
      true,
      false,
    ]);
  });

  it('refuses every trade and value move while locked, before any dialog asks the user', async () => {
    await unlockWithNewPassword();
    const key = await ok<{ address: string }>('keys.create', { label: 'Kept' });
    await ok('lock.lock');
    for (const [method, ...args] of [
      ['keys.delete', { address: key.address }],
      ['keys.exportKeystore', { address: key.address, password: 'export pass', passwordAgain: 'export pass' }],
      ['funds.withdraw', { amount: '1' }],
      ['orders.cancelAll', { assetId: '1', epoch: '1', signAs: 'master' }],
    ] as const) {
      expect(await err(method, ...args)).toEqual({
        code: 'vault.locked',
        message: 'The app is locked: unlock it first. Nothing was signed or sent.',
      });
    }
    expect(t.dialogs.shown).toEqual([]);
  });

  it('throttles wrong passwords with the sentence of the vault', async () => {
    await unlockWithNewPassword();
    await ok('lock.lock');
    expect(await err('lock.unlock', 'wrong password 1')).toEqual({
      code: 'vault.bad_password',
      message: 'The password is wrong.',
    });
    expect(await err('lock.unlock', 'wrong password 2')).toEqual({
      code: 'vault.bad_password',
      message: 'The password is wrong. Wait 1 s before trying again.',
    });
    // Even the right password is refused while throttled.
    expect(await err('lock.unlock', TEST_PASSWORD)).toMatchObject({
      code: 'vault.throttled',
      message: expect.stringMatching(/try again in 1 s/),
    });
    expect(await ok<{ throttledUntil: number | null }>('lock.status')).toMatchObject({
      throttledUntil: expect.any(Number),
    });
    t.clock.advance(1_000);
    expect(await ok('lock.unlock', TEST_PASSWORD)).toMatchObject({ locked: false, throttledUntil: null });
  });

  it('warms up signing once, deferred, after the first unlock', async () => {
    await unlockWithNewPassword();
    expect(t.warmUps()).toBe(0); // not on the calling path
    t.flushDeferred();
    expect(t.warmUps()).toBe(1);
    await ok('lock.lock');
    await ok('lock.unlock', TEST_PASSWORD);
    t.flushDeferred();
    expect(t.warmUps()).toBe(1);
  });
});

describe('keys', () => {
  beforeEach(unlockWithNewPassword);

  it('creates, renames and lists keys, with keys events', async () => {
    const key = await ok<{ address: string; label: string }>('keys.create', { label: 'Main' });
    expect(key).toMatchObject({ label: 'Main', role: 'master', source: 'created', backend: 'file' });
    expect(await ok('keys.rename', { address: key.address, label: 'Trading' })).toMatchObject({ label: 'Trading' });
    expect(await ok('keys.list')).toEqual([expect.objectContaining({ address: key.address, label: 'Trading' })]);
    const keyEvents = events.filter((e) => e.event === 'keys').map((e) => e.payload);
    expect(keyEvents).toHaveLength(2);
    expect(keyEvents[1]).toEqual([expect.objectContaining({ label: 'Trading' })]);
  });

  it('refuses bad input with the vault code and sentence', async () => {
    const pk = Wallet.createRandom().privateKey;
    await ok('keys.importPrivateKey', { privateKey: pk });
    expect(await err('keys.importPrivateKey', { privateKey: pk })).toMatchObject({ code: 'keys.duplicate' });
    expect(await err('keys.importPrivateKey', { privateKey: '0x1234' })).toMatchObject({
      code: 'keys.invalid_private_key',
    });
    expect(await err('keys.importMnemonic', { phrase: 'not a phrase', accountIndex: 0 })).toMatchObject({
      code: 'keys.invalid_mnemonic',
    });
    expect(await err('keys.rename', { address: Wallet.createRandom().address, label: 'x' })).toMatchObject({
      code: 'keys.not_found',
    });
  });

  it('deletes only after the user confirms in main', async () => {
    const key = await ok<{ address: string }>('keys.create', { label: 'Doomed' });
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('keys.delete', { address: key.address })).toEqual({ confirmed: false });
    expect(await ok('keys.list')).toHaveLength(1);
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('keys.delete', { address: key.address })).toEqual({ confirmed: true, value: null });
    expect(await ok('keys.list')).toEqual([]);
    expect(t.dialogs.shown[0]).toMatchObject({
      kind: 'confirm',
      request: {
        confirmLabel: 'Delete key',
        message: 'Delete this key from this computer?',
        detail: expect.stringContaining('Key label: “Doomed” (user text'),
      },
    });
    expect(t.dialogs.shown[0]?.kind === 'confirm' && t.dialogs.shown[0].request.detail).toContain(
      `Key: ${key.address}`,
    );
  });

  it('exports a keystore through main dialogs and imports it back', async () => {
    const key = await ok<{ address: string }>('keys.create', { label: 'Saved' });
    const file = join(t.dir, 'export.json');
    expect(
      await err('keys.exportKeystore', { address: key.address, password: 'export pass', passwordAgain: 'other pass' }),
    ).toMatchObject({
      code: 'vault.password_mismatch',
    });
    t.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'saveFile', path: file });
    expect(
      await ok('keys.exportKeystore', { address: key.address, password: 'export pass', passwordAgain: 'export pass' }),
    ).toEqual({
      confirmed: true,
      value: { path: file },
    });
    const json = readFileSync(file, 'utf8');
    t.dialogs.answer({ kind: 'confirm', yes: true });
    await ok('keys.delete', { address: key.address });
    expect(await ok('keys.importKeystore', { json, password: 'export pass', label: 'Back' })).toMatchObject({
      address: key.address,
      source: 'keystore',
    });
  });

  it('cancelling the save dialog writes nothing', async () => {
    const key = await ok<{ address: string }>('keys.create', {});
    t.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'saveFile', path: null });
    expect(
      await ok('keys.exportKeystore', { address: key.address, password: 'export pass', passwordAgain: 'export pass' }),
    ).toEqual({ confirmed: false });
  });

  it('offers and imports the devnet demo accounts while the devnet is selected', async () => {
    expect(await ok('keys.devnetAccounts')).toEqual([{ address: DEMO.address, label: 'Demo 1', imported: false }]);
    expect(await ok('keys.useDevnetAccount', { address: DEMO.address })).toMatchObject({
      address: DEMO.address,
      source: 'devnet',
      label: 'Demo 1',
    });
    expect(await ok('keys.devnetAccounts')).toEqual([{ address: DEMO.address, label: 'Demo 1', imported: true }]);
    expect(await err('keys.useDevnetAccount', { address: Wallet.createRandom().address })).toMatchObject({
      code: 'keys.not_found',
    });
  });
});

describe('settings and pins', () => {
  it('updates settings with an event, refuses a bad change with its sentence', async () => {
    expect(await ok('settings.update', { theme: 'light' })).toMatchObject({ theme: 'light' });
    expect(events.some((e) => e.event === 'settings')).toBe(true);
    const bad = await err('settings.update', { defaultSizes: ['0', '1', '2', '3'] });
    expect(bad.code).toBe('settings.invalid');
    // Named as the screen names it, not by its path in the settings file (defaultSizes.0).
    expect(bad.message).toBe('Setting not saved: Size preset 1 must be greater than zero.');
  });

  it('refuses protections, deployments and pins in settings.update, naming where they are changed', async () => {
    const before = t.settings.getSettings();
    for (const patch of [
      { pins: {} },
      { autoLockMinutes: -1 },
      { autoLockMinutes: 0 },
      { confirmations: { orders: false } },
      { selectedDeploymentId: 'devnet' },
      { deployments: [] },
      { theme: 'light', pendingPinChanges: {} },
    ]) {
      const refused = await err('settings.update', patch);
      expect(refused.code).toBe('settings.protected');
      expect(refused.message).toMatch(/^Setting not saved: .+ cannot be changed this way; .+ Nothing was changed\.$/);
    }
    expect(t.settings.getSettings()).toEqual(before);
  });

  it('reports auto-lock minutes in the lock status when they change', async () => {
    expect(await ok('settings.setAutoLock', 7)).toMatchObject({ confirmed: true, value: { autoLockMinutes: 7 } });
    expect(t.dialogs.shown).toEqual([]);
    expect(await ok('lock.status')).toMatchObject({ autoLockMinutes: 7 });
    expect(events.filter((e) => e.event === 'lock').at(-1)?.payload).toMatchObject({ autoLockMinutes: 7 });
  });

  it('makes auto-lock longer or off only after main asks', async () => {
    await ok('settings.setAutoLock', 10);
    t.dialogs.answer({ kind: 'confirm', yes: false }, { kind: 'confirm', yes: false });
    expect(await ok('settings.setAutoLock', 30)).toEqual({ confirmed: false });
    expect(await ok('settings.setAutoLock', 0)).toEqual({ confirmed: false });
    expect(t.settings.getSettings().autoLockMinutes).toBe(10);
    const shown = t.dialogs.shown.map((d) => (d.kind === 'confirm' ? d.request : null));
    expect(shown[0]).toMatchObject({
      title: 'Lock later',
      detail: expect.stringContaining('After: the app locks after 30 minutes idle'),
    });
    expect(shown[1]).toMatchObject({
      title: 'Turn off auto-lock',
      detail: expect.stringContaining('After: the app never locks by itself'),
    });
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('settings.setAutoLock', 0)).toMatchObject({ confirmed: true, value: { autoLockMinutes: 0 } });
    // From off, any limit is stricter: no dialog.
    expect(await ok('settings.setAutoLock', 60)).toMatchObject({ confirmed: true, value: { autoLockMinutes: 60 } });
    expect(t.dialogs.shown).toHaveLength(3);
  });

  it('turns order confirmation off only after main asks, and on at once', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('settings.setConfirmation', { name: 'orders', on: false })).toEqual({ confirmed: false });
    expect(t.settings.getSettings().confirmations.orders).toBe(true);
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('settings.setConfirmation', { name: 'orders', on: false })).toMatchObject({
      confirmed: true,
      value: { confirmations: { orders: false } },
    });
    expect(await ok('settings.setConfirmation', { name: 'orders', on: true })).toMatchObject({
      confirmed: true,
      value: { confirmations: { orders: true } },
    });
    expect(t.dialogs.shown).toHaveLength(2);
    // The others are not switches any more.
    for (const name of ['agentApprovals', 'keyExport', 'withdrawals']) {
      expect(await err('settings.setConfirmation', { name, on: false })).toMatchObject({ code: 'bridge.invalid_args' });
    }
  });

  it('resets the idle auto-lock on real input only, never on bridge calls', async () => {
    await unlockWithNewPassword();
    await ok('settings.setAutoLock', 5);
    t.clock.advance(4 * 60_000);
    // The window's own calls do not keep the vault open...
    await ok('lock.status');
    await ok('keys.list');
    t.clock.advance(60_000);
    expect(await ok('lock.status')).toMatchObject({ locked: true });
    await ok('lock.unlock', TEST_PASSWORD);
    // ...the person's input does.
    t.clock.advance(4 * 60_000);
    t.core.noteUserInput();
    t.clock.advance(4 * 60_000);
    expect(await ok('lock.status')).toMatchObject({ locked: false });
    t.clock.advance(60_000);
    expect(await ok('lock.status')).toMatchObject({ locked: true });
  });

  it('has the order gate rehearse its last order on a press, never on a move, a key going up or a bridge call', async () => {
    const rehearse = vi.spyOn(OrderGate.prototype, 'rehearse');
    try {
      await ok('lock.status');
      t.core.noteUserInput({ device: 'mouse', type: 'mouseMove' });
      t.core.noteUserInput({ device: 'key', type: 'keyUp', repeat: false });
      t.core.noteUserInput();
      expect(rehearse).not.toHaveBeenCalled();
      t.core.noteUserInput({ device: 'key', type: 'keyDown', repeat: false });
      t.core.noteUserInput({ device: 'mouse', type: 'mouseDown' });
      expect(rehearse).toHaveBeenCalledTimes(2);
    } finally {
      rehearse.mockRestore();
    }
  });

  it('shows a changed pin, and accepts it only after the user confirms', async () => {
    expect(await err('deployments.acceptPin')).toMatchObject({ code: 'deployments.no_pending_change' });
    const facts = { chainId: '31337', verifyingContract: '0x' + '11'.repeat(20), domainName: 'Service Exchange' };
    t.pinning.checkPin('devnet', facts, { trustFirstUse: true });
    expect(await ok('app.connection')).toMatchObject({
      deploymentId: 'devnet',
      devnet: true,
      pin: { kind: 'pinned', chainId: '31337' },
    });
    const moved = { ...facts, verifyingContract: '0x' + '22'.repeat(20) };
    t.pinning.checkPin('devnet', moved);
    expect(await ok('app.connection')).toMatchObject({
      pin: { kind: 'changed', sentence: expect.stringContaining('exchange contract') },
    });
    expect(events.filter((e) => e.event === 'connection').length).toBeGreaterThanOrEqual(2);

    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.acceptPin')).toEqual({ confirmed: false });
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.acceptPin')).toEqual({
      confirmed: true,
      value: {
        kind: 'pinned',
        chainId: '31337',
        verifyingContract: moved.verifyingContract,
        domainName: 'Service Exchange',
      },
    });
  });
});

describe('areas not wired yet and offline files', () => {
  it('answers bridge.unavailable with a sentence for trading areas', async () => {
    for (const method of ['markets.list', 'account.get', 'agents.status', 'claims.list', 'funds.withdrawals']) {
      const e = await err(method);
      expect(e.code).toBe('bridge.unavailable');
      expect(e.message.length).toBeGreaterThan(20);
    }
  });

  it('saves and opens a signed payload through main dialogs', async () => {
    const payload = {
      format: 'exchange-terminal/signed-request@1',
      kind: 'claim',
      path: '/claims',
      domain: { chainId: '31337', verifyingContract: '0x' + '11'.repeat(20), domainName: 'Service Exchange' },
      signedAt: '2025-01-01T00:00:00.000Z',
      body: { hello: 'world' },
    };
    const file = join(t.dir, 'signed.json');
    t.dialogs.answer({ kind: 'saveFile', path: file });
    expect(await ok('offline.saveFile', payload)).toEqual({ confirmed: true, value: { path: file } });
    expect(existsSync(file)).toBe(true);
    t.dialogs.answer({ kind: 'openFile', content: readFileSync(file, 'utf8') });
    expect(await ok('offline.openFile')).toEqual({ confirmed: true, value: payload });
    t.dialogs.answer({ kind: 'openFile', content: 'not json' });
    expect(await err('offline.openFile')).toMatchObject({ code: 'offline.invalid_file' });
  });

  it('refuses unknown methods and bad arguments before any handler runs', async () => {
    expect(await err('vault.exportAll')).toMatchObject({ code: 'bridge.unknown_method' });
    expect(await err('keys.create', { label: 'x', privateKey: '0x' })).toMatchObject({ code: 'bridge.invalid_args' });
  });
});
