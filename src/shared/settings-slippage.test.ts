import { describe, expect, it } from 'vitest';
import { SettingsSchema, defaultSettings } from './settings-schema';

describe('settings.maxSlippageCents', () => {
  it('defaults to 5¢, also for a settings file written before it existed', () => {
    expect(defaultSettings().maxSlippageCents).toBe('5');
    const { maxSlippageCents: _dropped, ...older } = defaultSettings();
    expect(SettingsSchema.parse(older).maxSlippageCents).toBe('5');
  });

  it('takes cents with one decimal from 0.1 to 99.9 and refuses anything else', () => {
    for (const ok of ['0.1', '2.5', '5', '10', '99.9'])
      expect(SettingsSchema.safeParse({ ...defaultSettings(), maxSlippageCents: ok }).success).toBe(true);
    for (const bad of ['0', '0.0', '100', '2.55', '-1', '', '5¢', ' 5'])
      expect(SettingsSchema.safeParse({ ...defaultSettings(), maxSlippageCents: bad }).success).toBe(false);
  });
});
