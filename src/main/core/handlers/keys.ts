/** keys.*: create, import, export, rename and delete keys in the vault. Secrets go in, never out. */
import { getAddress } from 'ethers';
import type { KeyInfo, KeyRole } from '../../../shared/bridge';
import { keyWorld, type KeyOptions, type VaultKeyInfo } from '../../vault';
import { practiceSelected, selectedWorld } from '../practice/practice-domain';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';

/** The vault's key facts as the window sees them: demo keys of the devnet say so. */
export function keyView(ctx: CoreContext, info: VaultKeyInfo): KeyInfo {
  const demo = info.source === 'privateKey' && ctx.devnetAccounts.some((a) => sameAddress(a.address, info.address));
  const { practice, ...rest } = info;
  return { ...rest, source: demo ? 'devnet' : info.source, practice: practice === true };
}

/**
 * The keys offered now: in practice only practice keys, on a real deployment (or none) only real
 * ones. The vault enforces the same rule when it signs (vault.signDigest); this keeps the other
 * world's keys out of every list and every selection.
 */
export function offeredKeys(ctx: CoreContext): VaultKeyInfo[] {
  const world = selectedWorld(ctx.settings.getSettings());
  return ctx.vault.list().filter((k) => keyWorld(k) === world);
}

export function keyList(ctx: CoreContext): KeyInfo[] {
  return offeredKeys(ctx).map((info) => keyView(ctx, info));
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Drops absent options: the vault's option object has no room for explicit undefined. */
function keyOptions(options: { label?: string | undefined; role?: KeyRole | undefined }): KeyOptions {
  return {
    ...(options.label === undefined ? {} : { label: options.label }),
    ...(options.role === undefined ? {} : { role: options.role }),
  };
}

function findKey(ctx: CoreContext, address: string): VaultKeyInfo {
  const info = offeredKeys(ctx).find((k) => sameAddress(k.address, address));
  if (!info) throw new BridgeFailure('keys.not_found', `No key for ${address} is in this vault.`);
  return info;
}

function isDevnetSelected(ctx: CoreContext): boolean {
  const s = ctx.settings.getSettings();
  return s.deployments.find((d) => d.id === s.selectedDeploymentId)?.builtIn === 'devnet';
}

/** Practice makes its own keys: a key that may hold money is never brought into practice. */
function noImportInPractice(ctx: CoreContext): void {
  if (practiceSelected(ctx.settings.getSettings()))
    throw new BridgeFailure(
      'keys.practice_import',
      'Practice uses keys made for it: create one here, or import your key after leaving practice.',
    );
}

export function keysHandlers(ctx: CoreContext): AreaHandlers<'keys'> {
  const { vault, dialogs } = ctx;
  return {
    'keys.list': () => keyList(ctx),
    // In practice a new key is a practice key (the second one is for the air-gapped round trip).
    'keys.create': async (options) =>
      keyView(
        ctx,
        practiceSelected(ctx.settings.getSettings())
          ? await vault.createPractice(keyOptions(options))
          : await vault.create(keyOptions(options)),
      ),
    'keys.importPrivateKey': async ({ privateKey, ...options }) => {
      noImportInPractice(ctx);
      return keyView(ctx, await vault.importPrivateKey(privateKey, keyOptions(options)));
    },
    'keys.importMnemonic': async ({ phrase, accountIndex, ...options }) => {
      noImportInPractice(ctx);
      return keyView(ctx, await vault.importMnemonic(phrase, accountIndex, keyOptions(options)));
    },
    'keys.importKeystore': async ({ json, password, ...options }) => {
      noImportInPractice(ctx);
      return keyView(ctx, await vault.importKeystore(json, password, keyOptions(options)));
    },

    'keys.exportKeystore': async ({ address, password, passwordAgain }) => {
      const info = findKey(ctx, address);
      // Encrypt first: a wrong or mismatched password is reported before the user is asked anything.
      const keystore = await vault.exportKeystore(info.address, password, passwordAgain);
      // Always confirmed: whoever holds the file and its password holds the funds.
      const yes = await dialogs.confirm(
        confirmRequest({
          capability: 'moves-value',
          title: 'Export key',
          action: 'Export this key as an encrypted keystore file',
          confirmLabel: 'Export',
          key: info.address,
          keyLabel: info.label,
          notes: ['Anyone with the file and its password controls this key and its funds.'],
        }),
      );
      if (!yes) return { confirmed: false };
      const path = await dialogs.saveFile({
        title: 'Save encrypted keystore',
        defaultName: `keystore-${info.address.slice(2, 10).toLowerCase()}.json`,
        content: keystore,
      });
      return path === null ? { confirmed: false } : { confirmed: true, value: { path } };
    },

    'keys.rename': ({ address, label }) => keyView(ctx, vault.rename(findKey(ctx, address).address, label)),

    'keys.delete': async ({ address }) => {
      const info = findKey(ctx, address);
      const yes = await dialogs.confirm(
        confirmRequest({
          capability: 'moves-value',
          title: 'Delete key',
          action: 'Delete this key from this computer',
          confirmLabel: 'Delete key',
          key: info.address,
          keyLabel: info.label,
          notes: [
            'The key cannot be recovered unless you have a backup (an exported keystore or its recovery phrase).',
          ],
        }),
      );
      if (!yes) return { confirmed: false };
      await vault.delete(info.address);
      return { confirmed: true, value: null };
    },

    'keys.devnetAccounts': () => {
      if (!isDevnetSelected(ctx)) return [];
      const keys = vault.list();
      return ctx.devnetAccounts.map((a) => ({
        address: getAddress(a.address),
        label: a.label,
        imported: keys.some((k) => sameAddress(k.address, a.address)),
      }));
    },

    'keys.useDevnetAccount': async ({ address }) => {
      const account = isDevnetSelected(ctx)
        ? ctx.devnetAccounts.find((a) => sameAddress(a.address, address))
        : undefined;
      if (!account) throw new BridgeFailure('keys.not_found', `${address} is not one of the devnet's demo accounts.`);
      return keyView(ctx, await vault.importPrivateKey(account.privateKey, { label: account.label }));
    },
  };
}
