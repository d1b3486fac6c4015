import { z } from 'zod';
import { DEFAULT_WORKING_DEFAULTS } from './working-defaults';

export const SETTINGS_VERSION = 1;

/**
 * How many entries each record and list of the settings may hold, and how long its strings may be:
 * the window can write some of them (settings.update), and every call reads the whole settings, so
 * none may grow without bound (docs/hostile-input.md).
 */
export const SETTINGS_LIMITS = {
  /** The trade screen sizes two panels; 64 leaves room for every layout the window will ever have. */
  panelSizes: 64,
  panelIdChars: 64,
  /** One pin (and one pending change) per deployment: deployments are at most 50. */
  pins: 100,
  deploymentIdChars: 64,
  /** Deployment URLs are typed by the user (at most 500 characters at the bridge). */
  urlChars: 1000,
} as const;

/** selectedDeploymentId when no deployment is selected (first run, or the last one removed). */
export const NO_DEPLOYMENT = '';

/**
 * URLs are checked by shape, not with the URL class: this module is shared with the window and
 * with pure code that has no URL global in its type environment.
 */
const url = (schemes: string[], what: string) =>
  z
    .string()
    .max(SETTINGS_LIMITS.urlChars)
    .regex(new RegExp(`^(${schemes.join('|')})://(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?(/[^\\s]*)?$`), {
      message: `must be a ${what} URL (${schemes.map((s) => `${s}://`).join(' or ')})`,
    });

const httpUrl = url(['http', 'https'], 'HTTP');
const wsUrl = url(['ws', 'wss'], 'WebSocket');

export const ChainIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,77}$/, { message: 'must be a positive whole number written in decimal' });
export const AddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { message: 'must be 0x followed by 40 hex digits' });

export const DeploymentSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: 'must be 1 to 64 lowercase letters, digits or dashes' }),
  name: z.string().trim().min(1).max(80),
  httpUrl,
  marketWsUrl: wsUrl,
  oracleWsUrl: wsUrl,
  rpcUrl: url(['http', 'https', 'ws', 'wss'], 'JSON-RPC'),
  chainId: ChainIdSchema,
  /** Written by main only: the devnet its launcher started, or practice (src/main/core/practice). */
  builtIn: z.enum(['devnet', 'practice']).optional(),
  /**
   * When the user confirmed this deployment's hosts in main's dialog. Main contacts a deployment only
   * when it is built in (written by main from its launcher's devnet.json) or confirmed; one saved by an
   * older version without a dialog waits until the user confirms it.
   */
  confirmedAt: z.string().max(40).optional(),
  /**
   * The markets to show: the exchange API has no route that lists them. The devnet publishes its
   * own list in devnet.json; any other deployment lists its asset ids here.
   */
  markets: z
    .array(
      z.strictObject({
        assetId: z.string().regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'must be an asset id written in decimal' }),
        symbol: z.string().trim().min(1).max(32),
      }),
    )
    .max(200)
    .optional(),
});
export type Deployment = z.infer<typeof DeploymentSchema>;

/**
 * The contracts the app sends tokens to (or lets spend them): pinned with the domain so a deposit
 * never approves or pays an address the user did not see. null where the deployment publishes none.
 */
export const SpendersSchema = z.strictObject({
  depositLedger: AddressSchema.nullable(),
  settlementToken: AddressSchema.nullable(),
  permit2: AddressSchema.nullable(),
});
export type Spenders = z.infer<typeof SpendersSchema>;

/**
 * The EIP-712 domain facts and spender addresses pinned per deployment. `spenders` is absent only
 * in pins written before spenders were pinned: such a pin no longer matches and asks the user again.
 */
export const DomainFactsSchema = z.strictObject({
  chainId: ChainIdSchema,
  verifyingContract: AddressSchema,
  domainName: z.string().min(1).max(200),
  spenders: SpendersSchema.optional(),
});
export type DomainFacts = z.infer<typeof DomainFactsSchema>;
export const PinSchema = DomainFactsSchema.extend({ pinnedAt: z.string().max(40) });
export type Pin = z.infer<typeof PinSchema>;

export const HOTKEY_ACTIONS = [
  'buyAtBest',
  'sellAtBest',
  'joinBid',
  'joinAsk',
  'sizePreset1',
  'sizePreset2',
  'sizePreset3',
  'sizePreset4',
  'cancelAllInMarket',
  'cancelLast',
  'flatten',
  'priceTickUp',
  'priceTickDown',
  'panic',
  'attachBracket',
  'timeExit',
  'cancelAllWorking',
] as const;
export type HotkeyAction = (typeof HOTKEY_ACTIONS)[number];

/** "Ctrl+Shift+B", "Escape", "ArrowUp", "1": modifiers in this order, then one key (KeyboardEvent.key names). */
export const KeyComboSchema = z
  .string()
  .regex(
    /^(?:Ctrl\+)?(?:Alt\+)?(?:Shift\+)?(?:Meta\+)?(?:[A-Z0-9]|F(?:[1-9]|1[0-2])|Arrow(?:Up|Down|Left|Right)|Escape|Enter|Space|Backspace|Delete|Tab|Home|End|PageUp|PageDown|[-=[\];',./`\\])$/,
    {
      message:
        'must be optional Ctrl+, Alt+, Shift+, Meta+ (in that order) and one key such as B, 1, F5, ArrowUp or Escape',
    },
  );

export const DEFAULT_HOTKEYS: Record<HotkeyAction, string> = {
  buyAtBest: 'Shift+B',
  sellAtBest: 'Shift+S',
  joinBid: 'B',
  joinAsk: 'S',
  sizePreset1: '1',
  sizePreset2: '2',
  sizePreset3: '3',
  sizePreset4: '4',
  cancelAllInMarket: 'Escape',
  cancelLast: 'Backspace',
  flatten: 'Shift+F',
  priceTickUp: 'ArrowUp',
  priceTickDown: 'ArrowDown',
  // Three modifiers: never pressed by accident, and free in settings saved before it existed.
  panic: 'Ctrl+Alt+Shift+P',
  // Working orders (docs/working-orders.md): A for attach, T for time, Shift+Escape beside Escape's cancel all.
  attachBracket: 'Shift+A',
  timeExit: 'Shift+T',
  cancelAllWorking: 'Shift+Escape',
};

const HotkeyBindingsSchema = z
  .strictObject({
    ...(Object.fromEntries(HOTKEY_ACTIONS.map((a) => [a, KeyComboSchema])) as Record<
      HotkeyAction,
      typeof KeyComboSchema
    >),
    // Added after settings v1 were first saved: a stored binding table without it gets the default.
    panic: KeyComboSchema.default(DEFAULT_HOTKEYS.panic),
    // Added with working orders: stored tables without them get the defaults.
    attachBracket: KeyComboSchema.default(DEFAULT_HOTKEYS.attachBracket),
    timeExit: KeyComboSchema.default(DEFAULT_HOTKEYS.timeExit),
    cancelAllWorking: KeyComboSchema.default(DEFAULT_HOTKEYS.cancelAllWorking),
  })
  .superRefine((bindings, ctx) => {
    const seen = new Map<string, string>();
    for (const [action, combo] of Object.entries(bindings)) {
      const other = seen.get(combo);
      if (other) ctx.addIssue({ code: 'custom', path: [action], message: `uses ${combo}, already bound to ${other}` });
      seen.set(combo, action);
    }
  });

/** A human decimal amount greater than zero, e.g. "10" or "2.5". */
/**
 * A record of at most `max` entries under keys of at most `keyChars` characters. The refusal is a
 * sentence for people (`forPeople`: the settings service shows it without the field's path).
 */
function boundedRecord<V extends z.ZodType>(value: V, max: number, keyChars: number, sentence: string) {
  return z.record(z.string(), value).refine(
    (r) => {
      const keys = Object.keys(r);
      return keys.length <= max && keys.every((k) => k.length >= 1 && k.length <= keyChars);
    },
    { message: sentence, params: { forPeople: true } },
  );
}

const HumanSizeSchema = z
  .string()
  .regex(/^(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,18})?$/, { message: 'must be a decimal number such as 10 or 2.5' })
  .refine((v) => /[1-9]/.test(v), { message: 'must be greater than zero' });

const AUTO_LOCK_MESSAGE = 'must be a whole number of minutes from 0 (off) to 1440 (a day)';

export const DEFAULT_MAX_SLIPPAGE_CENTS = '5';
export const MaxSlippageSchema = z
  .string()
  .regex(/^(?:[1-9][0-9]?|0)(?:\.[0-9])?$/, {
    message: 'must be from 0.1 to 99.9 cents with at most one decimal, such as 5 or 2.5',
  })
  .refine((v) => /[1-9]/.test(v), { message: 'must be at least 0.1¢' });

const TIME_EXIT_RULE = 'must be a whole number of seconds from 1 to 3600';

/**
 * What the working-order hotkeys and the position row start from (docs/working-orders.md): the
 * default bracket's take-profit and stop, in cents from its entry's price, and how long before the
 * epoch's end a time exit flattens. Plain preferences: every order they lead to passes the order gate.
 */
export const WorkingDefaultsSchema = z.strictObject({
  takeProfitCents: MaxSlippageSchema,
  stopCents: MaxSlippageSchema,
  timeExitSeconds: z
    .number({ message: TIME_EXIT_RULE })
    .int({ message: TIME_EXIT_RULE })
    .min(1, { message: TIME_EXIT_RULE })
    .max(3600, { message: TIME_EXIT_RULE }),
});

/** A whole-cents dollar amount typed as text, more than $0 and below $1,000,000,000: "250", "12.5". */
const DollarsSchema = z
  .string()
  .regex(/^(?:[1-9][0-9]{0,8}|0)(?:\.[0-9]{1,2})?$/, { message: 'must be an amount in dollars such as 250' })
  .refine((v) => /[1-9]/.test(v), { message: 'must be more than $0' });

/**
 * The risk guards main applies to every order (src/main/core/risk, docs/risk-guards.md). Stored as
 * typed: cents and dollars as decimal text, counts as numbers. Making one stricter is immediate;
 * making one looser happens only after main's dialog (settings.setRiskLimits); settings.update
 * cannot touch them.
 */
export const RiskLimitsSchema = z.strictObject({
  /** A buy above fair + band, or a sell below fair − band, is refused (cents, 0.1–99.9). */
  priceBandCents: MaxSlippageSchema,
  /** The most one order may cost (collateral it locks plus nothing else), in dollars. */
  maxOrderCost: DollarsSchema,
  /** The largest position, in contracts, on either side of one market's epoch. */
  maxPositionContracts: HumanSizeSchema,
  /** The most orders resting at once across all markets of the account. */
  maxOpenOrders: z.number().int().min(1).max(1000),
  /** The most orders signed in any 60 seconds. */
  maxOrdersPerMinute: z.number().int().min(1).max(6000),
  /** Today's loss (UTC day, realised plus unrealised at fair value) at which risk-adding orders stop, in % of the day's starting equity. */
  dailyLossPercent: z.number().min(0.1).max(100),
  /**
   * The daily loss limit as a fixed amount in dollars, in place of the percentage; '' (the default)
   * when the percentage applies. For an account funded after its day started (a day that started at
   * $0 has a $0 percentage budget), or a trader who thinks in dollars.
   */
  dailyLossAmount: z.string().refine((v) => v === '' || DollarsSchema.safeParse(v).success, {
    message: 'must be empty (the percentage applies) or an amount in dollars such as 250',
  }),
});
export type RiskLimits = z.infer<typeof RiskLimitsSchema>;

/**
 * The limits as stored: a file written before dailyLossAmount existed gets '' (the percentage
 * applies). Only here: a change of some limits (RiskLimitsSchema.partial) must leave it out when it
 * leaves it out, not fill in ''.
 */
const StoredRiskLimitsSchema = RiskLimitsSchema.extend({
  dailyLossAmount: RiskLimitsSchema.shape.dailyLossAmount.default(''),
});

export const DEFAULT_RISK_LIMITS: RiskLimits = {
  priceBandCents: '15',
  maxOrderCost: '500',
  maxPositionContracts: '2000',
  maxOpenOrders: 50,
  maxOrdersPerMinute: 120,
  dailyLossPercent: 10,
  dailyLossAmount: '',
};

export const SettingsSchema = z
  .strictObject({
    version: z.literal(SETTINGS_VERSION),
    /** Empty on a fresh install with no devnet running: the app opens on "Connect to an exchange". */
    deployments: z.array(DeploymentSchema).max(50),
    /** NO_DEPLOYMENT ('') when none is selected. */
    selectedDeploymentId: z.string().max(SETTINGS_LIMITS.deploymentIdChars),
    /** Pinned domain facts by deployment id (written by pinning.ts only). */
    pins: boundedRecord(
      PinSchema,
      SETTINGS_LIMITS.pins,
      SETTINGS_LIMITS.deploymentIdChars,
      `the app keeps at most ${SETTINGS_LIMITS.pins} pinned signing domains`,
    ),
    /**
     * Observed facts waiting for the user's decision, by deployment id (pinning.ts only): a change of
     * a pin, or the first pin of a deployment that has none yet.
     */
    pendingPinChanges: boundedRecord(
      DomainFactsSchema,
      SETTINGS_LIMITS.pins,
      SETTINGS_LIMITS.deploymentIdChars,
      `the app keeps at most ${SETTINGS_LIMITS.pins} signing-domain changes waiting for you`,
    ),
    hotkeys: z.strictObject({ enabled: z.boolean(), bindings: HotkeyBindingsSchema }),
    defaultSizes: z.tuple([HumanSizeSchema, HumanSizeSchema, HumanSizeSchema, HumanSizeSchema]),
    confirmations: z.strictObject({
      orders: z.boolean(),
      // Withdrawals are always confirmed in a dialog owned by main; the switch cannot be turned off.
      withdrawals: z.literal(true, { message: 'cannot be turned off' }),
      // Agent approvals and key export move value: always confirmed too. A false stored by an older
      // version reads as true rather than setting the whole file aside.
      agentApprovals: z.literal(true).catch(true),
      keyExport: z.literal(true).catch(true),
    }),
    theme: z.enum(['dark', 'light']),
    notifications: z.strictObject({ fills: z.boolean(), resolutions: z.boolean() }),
    layout: z.strictObject({
      /** Panel id → size in pixels. */
      panelSizes: boundedRecord(
        z.number().int().min(0).max(10_000),
        SETTINGS_LIMITS.panelSizes,
        SETTINGS_LIMITS.panelIdChars,
        `the layout keeps the sizes of at most ${SETTINGS_LIMITS.panelSizes} panels, each named in at most ${SETTINGS_LIMITS.panelIdChars} characters`,
      ),
      /** The market shown on start, e.g. an asset id; null for the first listed. */
      selectedMarket: z.string().max(200).nullable(),
    }),
    /** Minutes of inactivity before the vault locks; 0 disables. */
    autoLockMinutes: z
      .number({ message: AUTO_LOCK_MESSAGE })
      .int({ message: AUTO_LOCK_MESSAGE })
      .min(0, { message: AUTO_LOCK_MESSAGE })
      .max(24 * 60, { message: AUTO_LOCK_MESSAGE }),
    /**
     * How far from the live best price a closing (flatten) or market-style order may trade, in
     * cents (0.1–99.9, one decimal). Older settings files get the default.
     */
    maxSlippageCents: MaxSlippageSchema.default(DEFAULT_MAX_SLIPPAGE_CENTS),
    /** The default bracket and time exit (older files get the defaults). */
    workingDefaults: WorkingDefaultsSchema.default(DEFAULT_WORKING_DEFAULTS),
    /**
     * Claim each newly resolved epoch with something to claim as soon as it resolves (a claim only
     * pays the account, so this is a plain preference). Off by default; older files get the default.
     */
    autoClaim: z.boolean().default(false),
    /**
     * Offline mode: the app opens no network connection at all (src/main/core/offline-mode.ts).
     * Turning it off makes the app connect, so only main's own dialog does that. Older files get off.
     */
    offlineMode: z.boolean().default(false),
    /** Pre-trade risk guards (older files get the defaults). */
    riskLimits: StoredRiskLimitsSchema.default(DEFAULT_RISK_LIMITS),
    /**
     * Download a signed release as soon as it is announced, or only when the person asks
     * (src/main/updates). Downloading installs nothing (see installUpdatesOnQuit). Older files get automatic.
     */
    updateDownloads: z.enum(['automatic', 'ask']).default('automatic'),
    /**
     * Install a downloaded, checked release when the person quits the app. Off (the default, and
     * what older files get): quitting installs nothing, however the quit came about (the window
     * closing itself included), and only a yes in main's restart dialog installs. Turning it on
     * happens only after main's dialog (settings.setInstallUpdatesOnQuit); settings.update cannot touch it.
     */
    installUpdatesOnQuit: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    const ids = new Set<string>();
    s.deployments.forEach((d, i) => {
      if (ids.has(d.id))
        ctx.addIssue({ code: 'custom', path: ['deployments', i, 'id'], message: `repeats the id ${d.id}` });
      ids.add(d.id);
    });
    if (s.selectedDeploymentId !== NO_DEPLOYMENT && !ids.has(s.selectedDeploymentId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['selectedDeploymentId'],
        message: 'must be the id of one of the deployments',
      });
    }
  });
export type Settings = z.infer<typeof SettingsSchema>;

/** The embedded local network started by `npm start`; the devnet owns the real ports. */
export const DEVNET_DEPLOYMENT: Deployment = {
  id: 'devnet',
  name: 'Local devnet',
  httpUrl: 'http://127.0.0.1:8787',
  marketWsUrl: 'ws://127.0.0.1:8787/ws/',
  oracleWsUrl: 'ws://127.0.0.1:8787/oracle-ws/',
  rpcUrl: 'http://127.0.0.1:8545',
  chainId: '31337',
  builtIn: 'devnet',
};

/** The built-in devnet deployment at the endpoints a devnet really runs on (ephemeral ports in tests). */
export function devnetDeploymentAt(at: {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  rpcUrl: string;
  chainId: bigint | string;
}): Deployment {
  return {
    ...DEVNET_DEPLOYMENT,
    httpUrl: at.httpUrl,
    marketWsUrl: at.marketWsUrl,
    oracleWsUrl: at.oracleWsUrl,
    rpcUrl: at.rpcUrl,
    chainId: at.chainId.toString(),
  };
}

export function defaultSettings(deployments: Deployment[] = [DEVNET_DEPLOYMENT]): Settings {
  return {
    version: SETTINGS_VERSION,
    deployments,
    selectedDeploymentId: deployments[0]?.id ?? NO_DEPLOYMENT,
    pins: {},
    pendingPinChanges: {},
    hotkeys: { enabled: false, bindings: { ...DEFAULT_HOTKEYS } },
    defaultSizes: ['1', '5', '10', '25'],
    confirmations: { orders: true, withdrawals: true, agentApprovals: true, keyExport: true },
    theme: 'dark',
    notifications: { fills: true, resolutions: true },
    layout: { panelSizes: {}, selectedMarket: null },
    autoLockMinutes: 15,
    maxSlippageCents: DEFAULT_MAX_SLIPPAGE_CENTS,
    workingDefaults: { ...DEFAULT_WORKING_DEFAULTS },
    autoClaim: false,
    offlineMode: false,
    riskLimits: { ...DEFAULT_RISK_LIMITS },
    updateDownloads: 'automatic',
    installUpdatesOnQuit: false,
  };
}
