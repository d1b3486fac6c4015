/**
 * The "no path from the window reaches a private key" proof: every keys.* and lock.* method is
 * driven through the core the window talks to, and no result, error, event or log line carries
 * a private key, recovery phrase, keystore or app password.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encryptKeystoreJson, HDNodeWallet, Wallet } from 'ethers';
import { afterEach, expect, it } from 'vitest';
import { bridgeEventNames, bridgeMethodNames } from '../../shared/bridge';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../../../test/support/test-core';

let t: TestCore | undefined;
afterEach(() => t?.close());

it('no value, error, event or log line from keys.* and lock.* contains a secret', async () => {
  const demo = Wallet.createRandom();
  t = await createTestCore({ devnetAccounts: [{ label: 'Demo', address: demo.address, privateKey: demo.privateKey }] });
  const { core, dialogs } = t;
  const imported = Wallet.createRandom();
  const phrase = HDNodeWallet.createRandom().mnemonic!.phrase;
  const keystorePassword = 'keystore secret 42';
  const keystoreWallet = Wallet.createRandom();
  const keystore = await encryptKeystoreJson(
    { address: keystoreWallet.address, privateKey: keystoreWallet.privateKey },
    keystorePassword,
    { scrypt: { N: 2 ** 10 } },
  );
  const keystoreKey = keystoreWallet.privateKey;
  const secrets = [
    imported.privateKey,
    demo.privateKey,
    keystoreKey,
    // Runs of two or more of the phrase's words: one word alone is an English word ("account",
    // "balance") that the window's own text may hold by chance.
    ...phrase
      .split(' ')
      .slice(0, 3)
      .map((_, i, w) => w.slice(i).join(' '))
      .filter((run) => run.includes(' ')),
    phrase,
    keystorePassword,
    TEST_PASSWORD,
  ];
  const seen: unknown[] = [];
  for (const event of bridgeEventNames) core.on(event, (payload) => seen.push(payload));
  const call = async (method: string, ...args: unknown[]) => {
    const outcome = await core.invoke(method, args);
    seen.push(outcome);
    return outcome;
  };

  await call('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  await call('lock.status');
  const created = await call('keys.create', { label: 'Created' });
  await call('keys.importPrivateKey', { privateKey: imported.privateKey, label: 'Imported' });
  await call('keys.importPrivateKey', { privateKey: imported.privateKey }); // duplicate: error path
  await call('keys.importPrivateKey', { privateKey: imported.privateKey.slice(0, 60) }); // malformed: error path
  await call('keys.importMnemonic', { phrase, accountIndex: 0, label: 'Phrase' });
  await call('keys.importMnemonic', { phrase: phrase.split(' ').reverse().join(' '), accountIndex: 0 }); // bad checksum
  await call('keys.importKeystore', { json: keystore, password: keystorePassword, label: 'Keystore' });
  await call('keys.importKeystore', { json: keystore, password: 'wrong ' + keystorePassword });
  await call('keys.devnetAccounts');
  await call('keys.useDevnetAccount', { address: demo.address });
  await call('keys.list');
  const address = created.ok ? (created.value as { address: string }).address : '';
  await call('keys.rename', { address, label: 'Renamed' });
  const exportFile = join(t.dir, 'exported.json');
  dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'saveFile', path: exportFile });
  await call('keys.exportKeystore', { address, password: keystorePassword, passwordAgain: keystorePassword });
  dialogs.answer({ kind: 'confirm', yes: true });
  await call('keys.delete', { address });
  await call('lock.lock');
  await call('lock.unlock', 'not the password');
  await call('lock.unlock', TEST_PASSWORD + ' typo');
  t.clock.advance(60_000);
  await call('lock.unlock', TEST_PASSWORD);
  // Changing the password is a trust change: main asks first.
  dialogs.answer({ kind: 'confirm', yes: true });
  expect(
    (
      await call('lock.setPassword', {
        password: TEST_PASSWORD + '!',
        passwordAgain: TEST_PASSWORD + '!',
        currentPassword: TEST_PASSWORD,
      })
    ).ok,
  ).toBe(true);
  await call('lock.removePassword', TEST_PASSWORD + '!');

  // Every keys.* and lock.* method of the table was driven.
  const driven = new Set([
    'lock.setPassword',
    'lock.status',
    'lock.lock',
    'lock.unlock',
    'lock.removePassword',
    'keys.create',
    'keys.importPrivateKey',
    'keys.importMnemonic',
    'keys.importKeystore',
    'keys.exportKeystore',
    'keys.rename',
    'keys.delete',
    'keys.devnetAccounts',
    'keys.useDevnetAccount',
    'keys.list',
  ]);
  expect(bridgeMethodNames.filter((m) => /^(keys|lock)\./.test(m)).filter((m) => !driven.has(m))).toEqual([]);

  // The secrets really went in (else the proof proves nothing).
  const list = await core.invoke('keys.list', []);
  expect(JSON.stringify(list)).toContain(imported.address);
  expect(JSON.stringify(list)).toContain(demo.address);

  const windowSaw = JSON.stringify(seen).toLowerCase();
  const log = t.logText().toLowerCase();
  for (const secret of secrets) {
    const s = secret.toLowerCase();
    expect(windowSaw.includes(s), `window saw a secret (${secret.length} chars)`).toBe(false);
    expect(windowSaw.includes(s.replace(/^0x/, '')), 'window saw a secret without 0x').toBe(false);
    expect(log.includes(s), 'the log holds a secret').toBe(false);
  }
  // The exported keystore went to the file the user picked, not to the window.
  const ciphertext = (JSON.parse(readFileSync(exportFile, 'utf8')) as { crypto: { ciphertext: string } }).crypto
    .ciphertext;
  expect(windowSaw).not.toContain(ciphertext);
});
