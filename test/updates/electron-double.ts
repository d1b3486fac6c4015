/**
 * The Electron API as electron-updater reaches it at run time (`require("electron")` inside its
 * functions), for tests that run the real updater under plain node: its `autoUpdater` emitter
 * (quitAndInstall announces "before-quit-for-update" on it), and for everything else a trap that
 * records the access and throws, so a test sees the updater never used Chromium's network
 * (`net`, `session`) or electron's own app object instead of the adapter and executor it was given.
 */
import { EventEmitter } from 'node:events';
import Module from 'node:module';

export interface ElectronDouble {
  readonly autoUpdater: EventEmitter;
  /** "net.request", "session.fromPartition"…: what the code under test touched and should not have. */
  readonly forbidden: string[];
  restore(): void;
}

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;

export function installElectronDouble(): ElectronDouble {
  const forbidden: string[] = [];
  const trap = (name: string): object =>
    new Proxy(
      {},
      {
        get(_target, property) {
          forbidden.push(`${name}.${String(property)}`);
          throw new Error(`electron.${name} is not what the updater may use`);
        },
      },
    );
  const autoUpdater = new EventEmitter();
  const double = { autoUpdater, net: trap('net'), session: trap('session'), app: trap('app'), shell: trap('shell') };
  const loader = Module as unknown as { _load: Loader };
  const original = loader._load;
  loader._load = function load(this: unknown, request, parent, isMain) {
    if (request === 'electron') return double;
    return original.call(this, request, parent, isMain);
  };
  return { autoUpdater, forbidden, restore: () => void (loader._load = original) };
}
