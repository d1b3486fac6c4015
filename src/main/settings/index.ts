export { SettingsService, toSettingsError } from './settings-service';
export type { SettingsListener, SettingsPatch, SettingsServiceOptions } from './settings-service';
export { DeploymentPinning, describePinChange, factsOf } from './pinning';
export { isConfirmed, pinStateOf, selectedDeployment } from './deployment-selection';
export type { CheckPinOptions, PinCheck } from './pinning';
export { SettingsError } from './errors';
export type { SettingsErrorCode } from './errors';
export { migrateSettings, MIGRATIONS } from './migrations';
export {
  SETTINGS_VERSION,
  SettingsSchema,
  DeploymentSchema,
  DomainFactsSchema,
  SpendersSchema,
  NO_DEPLOYMENT,
  PinSchema,
  KeyComboSchema,
  HOTKEY_ACTIONS,
  DEFAULT_HOTKEYS,
  DEVNET_DEPLOYMENT,
  devnetDeploymentAt,
  defaultSettings,
} from './schema';
export type { Settings, Deployment, DomainFacts, Pin, HotkeyAction, Spenders } from './schema';
