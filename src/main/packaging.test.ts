/** The installer configuration: identity, targets, icons, and nothing but the built app packed. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asar: boolean;
  icon: string;
  mac: { target: string[]; icon: string; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string };
  win: { target: string[]; icon: string };
  linux: { target: string[]; icon: string };
  directories: { output: string };
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
}

const config = parse(readFileSync(resolve('electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
  productName: string;
  main: string;
  build?: unknown;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('electron-builder.yml', () => {
  it('names the app', () => {
    expect(config.appId).toBe('com.exchangeterminal.app');
    expect(config.productName).toBe('Exchange Terminal');
    expect(pkg.productName).toBe(config.productName);
    expect(pkg.build, 'one place for the builder config: electron-builder.yml').toBeUndefined();
  });

  it('builds a dmg, an nsis installer, an AppImage and a deb', () => {
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
  });

  it('packs only the built app, in an asar archive, and the entry point is inside it', () => {
    expect(config.asar).toBe(true);
    expect(config.files.filter((f) => f !== 'package.json')).toEqual(['out/**', '!out/**/*.map']);
    expect(pkg.main.replace(/^\.\//, '')).toMatch(/^out\//);
    expect(config.directories.output).not.toMatch(/^out\b/);
  });

  it('uses an icon that exists and is big enough for every platform', () => {
    for (const icon of [config.icon, config.mac.icon, config.win.icon, config.linux.icon]) {
      expect(existsSync(resolve(icon)), icon).toBe(true);
      const png = readFileSync(resolve(icon));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR width and height: the builder needs at least 512×512 for macOS.
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    }
  });
});

describe('Electron fuses (electron-builder electronFuses)', () => {
  // Every fuse of @electron/fuses' V1 wire, named as electron-builder 26's schema names them.
  const expected = {
    runAsNode: false, // ELECTRON_RUN_AS_NODE would turn the signed app into a plain node
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false, // NODE_OPTIONS=--require … injects code
    enableNodeCliInspectArguments: false, // --inspect / SIGUSR1 opens a debugger into main
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true, // no resources/app folder next to the archive is ever loaded
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: false, // the page is served from app://, not file://
  };

  it('sets every fuse explicitly, the locking way', () => {
    expect(config.electronFuses).toEqual(expected);
  });

  it('names only fuses electron-builder knows (its JSON schema), and all of them', () => {
    const schema = JSON.parse(readFileSync(resolve('node_modules/app-builder-lib/scheme.json'), 'utf8')) as {
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    const known = Object.keys(schema.definitions.FuseOptionsV1.properties).filter(
      (name) => name !== 'resetAdHocDarwinSignature',
    );
    expect(Object.keys(config.electronFuses).sort()).toEqual(known.sort());
  });
});

describe('macOS entitlements', () => {
  it('are our own file, for the app and its helpers, under the hardened runtime', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.entitlements).toBe('resources/entitlements.mac.plist');
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
  });

  it('grant JIT only: no library-validation bypass, no devices, no dyld variables', () => {
    const plist = readFileSync(resolve(config.mac.entitlements), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted).toEqual(['com.apple.security.cs.allow-jit']);
    expect(plist.replace(/<!--[\s\S]*?-->/g, '')).not.toMatch(/disable-library-validation|allow-dyld|<false\/>/);
  });
});

describe('what the installer carries', () => {
  it('has only the keychain binding and the WASM signer as production dependencies: everything else is bundled into out/main', () => {
    // tiny-secp256k1 reads its .wasm next to its own files at run time, so it cannot be bundled.
    expect(Object.keys(pkg.dependencies)).toEqual(['@napi-rs/keyring', 'tiny-secp256k1']);
    for (const devOnly of ['hardhat', 'solc', 'electron', 'tsx', 'vitest', '@playwright/test']) {
      expect(pkg.dependencies[devOnly], devOnly).toBeUndefined();
    }
  });

  it('unpacks native files from the archive (the keychain binding cannot load from inside it)', () => {
    expect(config.asarUnpack).toEqual(['**/*.node']);
  });
});
