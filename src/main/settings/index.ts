export { SettingsService, toSettingsError } from './settings-service';
export type { SettingsListener, SettingsPatch, SettingsServiceOptions } from './settings-service';
export { DeploymentPinning, describePinChange } from './pinning';
export type { PinCheck } from './pinning';
export { SettingsError } from './errors';
export type { SettingsErrorCode } from './errors';
export { migrateSettings, MIGRATIONS } from './migrations';
export {
  SETTINGS_VERSION,
  SettingsSchema,
  DeploymentSchema,
  DomainFactsSchema,
  PinSchema,
  KeyComboSchema,
  HOTKEY_ACTIONS,
  DEFAULT_HOTKEYS,
  DEVNET_DEPLOYMENT,
  devnetDeploymentAt,
  defaultSettings,
} from './schema';
export type { Settings, Deployment, DomainFacts, Pin, HotkeyAction } from './schema';
