/**
 * Field errors worded for people: a refused value is named as the screen names it ("Size preset 1",
 * "the Join the ask hotkey", "Auto-lock"), never by its schema path ("defaultSizes.0",
 * "hotkeys.bindings.joinAsk") or by the bridge method and argument position it travelled in.
 * Shared by main (settings and bridge argument refusals) and the window (the hotkey labels).
 */
import type { HotkeyAction } from './settings-schema';

/** What each hotkey does, as the Settings screen lists it. */
export const HOTKEY_LABELS: Readonly<Record<HotkeyAction, string>> = {
  buyAtBest: 'Buy at best ask (IOC)',
  sellAtBest: 'Sell at best bid (IOC)',
  // A join rests: it takes the ticket's time in force when that is post-only, else GTC (hotkeys.ts).
  joinBid: 'Join the bid (GTC, or ALO when the ticket is ALO)',
  joinAsk: 'Join the ask (GTC, or ALO when the ticket is ALO)',
  sizePreset1: 'Size preset 1',
  sizePreset2: 'Size preset 2',
  sizePreset3: 'Size preset 3',
  sizePreset4: 'Size preset 4',
  cancelAllInMarket: 'Cancel all in this market',
  cancelLast: 'Cancel my last order',
  flatten: 'Flatten the position',
  priceTickUp: 'Ticket price up a tick',
  priceTickDown: 'Ticket price down a tick',
  panic: 'Panic: send the emergency kit (any screen)',
  attachBracket: 'Attach the default bracket to the next order',
  timeExit: 'Flatten before expiry (a time exit on this market)',
  cancelAllWorking: 'Cancel all working orders',
};

const SETTING_LABELS: Readonly<Record<string, string>> = {
  maxSlippageCents: 'Max slippage',
  workingDefaults: 'The working-order defaults',
  autoLockMinutes: 'Auto-lock',
  autoClaim: 'Auto-claim',
  offlineMode: 'Offline mode',
  installUpdatesOnQuit: 'Install updates when you quit',
  theme: 'The theme',
  hotkeys: 'The hotkeys',
  notifications: 'The notification switches',
  confirmations: 'The confirmation switches',
  layout: 'The saved layout',
  defaultSizes: 'The size presets',
  selectedDeploymentId: 'The selected exchange',
  deployments: 'The exchanges',
  pins: 'The pinned signing facts',
  pendingPinChanges: 'The pinned signing facts',
  version: 'The settings version',
};

/** The working-order defaults as the Working orders tab names them. */
const WORKING_DEFAULT_LABELS: Readonly<Record<string, string>> = {
  takeProfitCents: 'The default take-profit',
  stopCents: 'The default stop',
  timeExitSeconds: 'The default time exit',
};

const DEPLOYMENT_LABELS: Readonly<Record<string, string>> = {
  id: 'The exchange’s id',
  name: 'The name',
  httpUrl: 'The base URL',
  marketWsUrl: 'The market feed URL',
  oracleWsUrl: 'The oracle feed URL',
  rpcUrl: 'The JSON-RPC URL',
  chainId: 'The chain id',
  markets: 'A market',
};

/** Fields of the objects the window sends (orders, withdrawals, keys…), by their last name. */
const ARGUMENT_LABELS: Readonly<Record<string, string>> = {
  price: 'The price',
  size: 'The size',
  amount: 'The amount',
  receiver: 'The receiver',
  timeInForce: 'The time in force',
  side: 'The side',
  signAs: 'The signing key',
  assetId: 'The market',
  epoch: 'The epoch',
  label: 'The label',
  address: 'The address',
  password: 'The password',
  mnemonic: 'The recovery phrase',
  privateKey: 'The private key',
  accountIndex: 'The account index',
  httpUrl: 'The base URL',
  chainId: 'The chain id',
};

/** Methods whose first argument is itself a value the user typed. */
const METHOD_ARGUMENT_LABELS: Readonly<Record<string, string>> = {
  'settings.setAutoLock': 'Auto-lock',
};

/** How the screen names a settings field, from the path of the refused value. */
export function settingLabel(path: readonly (string | number)[]): string {
  const [head, second, third] = path;
  if (head === 'defaultSizes' && typeof second === 'number') return `Size preset ${second + 1}`;
  if (head === 'hotkeys' && second === 'bindings' && typeof third === 'string' && third in HOTKEY_LABELS)
    return `The “${HOTKEY_LABELS[third as HotkeyAction]}” hotkey`;
  if (head === 'deployments' && typeof third === 'string') return DEPLOYMENT_LABELS[third] ?? 'An exchange setting';
  if (head === 'workingDefaults' && typeof second === 'string' && second in WORKING_DEFAULT_LABELS)
    return WORKING_DEFAULT_LABELS[second]!;
  return (typeof head === 'string' && SETTING_LABELS[head]) || 'This setting';
}

/** How a refused bridge argument is named: by the method's own label, else by the field's. */
export function argumentLabel(method: string, path: readonly PropertyKey[]): string {
  const direct = METHOD_ARGUMENT_LABELS[method];
  if (direct && path.length <= 1) return direct;
  const last = [...path].reverse().find((p): p is string => typeof p === 'string');
  return (last && ARGUMENT_LABELS[last]) || 'A value you entered';
}

/**
 * "Size preset 1 must be greater than zero." from a label and a validation message. A message that
 * is not ours (a library's default, which may name types and paths) becomes a plain refusal.
 */
export function fieldSentence(label: string, message: string): string {
  const own = /^(must|is|uses|repeats|cannot)\b/.test(message) && !/[A-Za-z]+\.[A-Za-z0-9]+\./.test(message);
  const said = own ? message.replace(/[.\s]+$/, '') : 'is not a value this field takes';
  return `${label} ${said}.`;
}
