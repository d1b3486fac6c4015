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
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  linux: { target: string[]; icon: string };
  directories: { output: string };
}

const config = parse(readFileSync(resolve('electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { productName: string; main: string; build?: unknown };

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
    expect(config.files.filter((f) => f !== 'package.json')).toEqual(['out/**']);
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
