/**
 * kit.*: the emergency kit (docs/airgap.md). On the machine with the master key, kit.build pre-signs
 * cancel-alls for chosen markets over the next epochs and an agent revocation, under the selected
 * deployment's pinned domain only and after main's dialog says exactly what. On the watch-only
 * machine, a kit comes in by file or QR (receiveKit), is checked against the pin, kept with the
 * entries used, and kit.panic sends what applies to the current epochs with no key present, once
 * per press of the person that main saw (user-presence.ts).
 */
import type { KitBuildArgs, KitView } from '../../../shared/bridge';
import { formatTimeframe, unpackAssetId, type Address } from '../../../shared/protocol';
import {
  MAX_KIT_ENTRIES,
  buildEmergencyKit,
  type EmergencyKit,
  type KitMarket,
  type SigningContext,
} from '../../../client';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import { airgapFailure, receiveKit } from '../airgap/kit-receive';
import { kitMatchesPin, kitView } from '../airgap/kit-view';
import { runPanic } from '../airgap/kit-panic';
import { assertSameFacts, selectedSigningFacts, type SigningFacts } from '../session/signing-facts';
import type { TradingHost } from '../session/host';
import { vaultSigner } from '../session/vault-signer';
import { makeExchangeDomain } from '../../../shared/protocol';

/** Big enough for the largest kit (2,000 signatures and a revocation); a larger file is not a kit. */
const MAX_KIT_CHARS = 1024 * 1024;

/** The epoch an asset is in at `nowSec` (its epochs start at startTime, each periodLength long). */
export function epochAt(assetId: bigint, nowSec: bigint): bigint {
  const f = unpackAssetId(assetId);
  return nowSec <= f.startTime ? 0n : (nowSec - f.startTime) / f.periodLength;
}

function epochEnd(assetId: bigint, epoch: bigint): string {
  const f = unpackAssetId(assetId);
  return new Date(Number(f.startTime + (epoch + 1n) * f.periodLength) * 1000).toISOString();
}

function kitNotes(markets: readonly KitMarket[], perEpoch: number, revokeAgent: boolean): string[] {
  const count =
    markets.reduce((n, m) => n + Number(m.toEpoch - m.fromEpoch + 1n) * perEpoch, 0) + (revokeAgent ? 1 : 0);
  return [
    ...markets.map(
      (m) =>
        `Cancel every order of this account on ${m.label}, epochs ${m.fromEpoch} to ${m.toEpoch} (until ${m.until}), up to ${perEpoch} time${perEpoch === 1 ? '' : 's'} per epoch.`,
    ),
    ...(revokeAgent ? ['Revoke whichever agent is approved for this account when it is sent.'] : []),
    `${count} signatures in all, made now, to be sent later by a machine that holds no key.`,
    'Whoever holds the kit can send these until they expire: they can cancel this account’s orders and revoke its agent, never place an order or move funds.',
  ];
}

export function kitHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'kit'> {
  const selected = () => {
    const s = ctx.settings.getSettings();
    return {
      deployment: s.deployments.find((d) => d.id === s.selectedDeploymentId),
      pin: ctx.pinning.pinFor(s.selectedDeploymentId),
    };
  };
  /** The selected deployment's pinned domain after every check that applies to a signature (offline too). */
  const signingNow = (): SigningFacts => selectedSigningFacts(ctx, trading.facts()?.chainId);
  const view = (id: string): KitView => kitView(ctx.kits.get(id), selected().pin);

  /** The markets asked for, from the selected deployment's own list, each from its current epoch on. */
  const kitMarkets = (args: KitBuildArgs): KitMarket[] => {
    const { deployment } = selected();
    const listed = deployment ? trading.options.markets(deployment) : [];
    const offset = BigInt(Math.round(trading.clockOffsetMs() ?? 0));
    const nowSec = (BigInt(Date.now()) + offset) / 1000n;
    const seen = new Set<string>();
    const out: KitMarket[] = [];
    for (const id of args.assetIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      const entry = listed.find((m) => m.assetId.toString() === id);
      if (!entry)
        throw new BridgeFailure('kit.unknown_market', `Asset ${id} is not one of the selected deployment's markets.`);
      const from = epochAt(entry.assetId, nowSec);
      const to = from + BigInt(args.epochs) - 1n;
      out.push({
        assetId: entry.assetId,
        label: `${entry.symbol} ${formatTimeframe(unpackAssetId(entry.assetId).periodLength)}`,
        fromEpoch: from,
        toEpoch: to,
        until: epochEnd(entry.assetId, to),
      });
    }
    return out;
  };

  return {
    'kit.build': async (args) => {
      await ctx.kits.ready();
      const key = ctx.vault.list().find((k) => k.address.toLowerCase() === args.signer.toLowerCase());
      if (!key) throw new BridgeFailure('keys.not_found', `No key for ${args.signer} is in this vault.`);
      const facts = signingNow();
      const markets = kitMarkets(args);
      // Refused before the dialog: the user is never asked about a kit that cannot be made.
      if (markets.length * args.epochs * args.perEpoch > MAX_KIT_ENTRIES)
        throw new BridgeFailure(
          'kit.too_large',
          `That kit would hold more than ${MAX_KIT_ENTRIES} signatures: choose fewer markets, epochs or cancel-alls per epoch.`,
        );
      const yes = await ctx.dialogs.confirm(
        confirmRequest({
          capability: 'moves-value',
          title: 'Make an emergency kit',
          action: 'Pre-sign cancel-alls and an agent revocation for another machine to send later',
          confirmLabel: 'Sign the kit',
          from: key.address,
          ...facts,
          notes: kitNotes(markets, args.perEpoch, args.revokeAgent),
        }),
      );
      if (!yes) return { confirmed: false };
      assertSameFacts(facts, signingNow());
      const signing: SigningContext = {
        signer: vaultSigner(ctx.vault, key.address, ctx.clearances),
        domain: makeExchangeDomain({
          chainId: BigInt(facts.chainId),
          verifyingContract: facts.verifyingContract as Address,
          name: facts.domainName,
        }),
      };
      let kit: EmergencyKit;
      try {
        kit = await buildEmergencyKit(signing, {
          contracts: {
            exchange: facts.verifyingContract as Address,
            ledger: trading.facts()?.contracts.ledger ?? null,
          },
          markets,
          perEpoch: args.perEpoch,
          revokeAgent: args.revokeAgent,
        });
      } catch (error) {
        throw airgapFailure(error);
      }
      ctx.kits.put(kit, 'build', new Date());
      return { confirmed: true, value: view(kit.id) };
    },

    'kit.list': async () => {
      await ctx.kits.ready();
      const { pin } = selected();
      return ctx.kits.list().map((k) => kitView(k, pin));
    },

    'kit.saveFile': async (id) => {
      await ctx.kits.ready();
      const stored = ctx.kits.get(id);
      const path = await ctx.dialogs.saveFile({
        title: 'Save emergency kit',
        defaultName: `emergency-kit-${stored.kit.fingerprint.slice(0, 9)}.json`,
        content: ctx.kits.envelopeText(id),
      });
      return path === null ? { confirmed: false } : { confirmed: true, value: { path } };
    },

    'kit.openFile': async () => {
      const text = await ctx.dialogs.openFile({ title: 'Open emergency kit' });
      if (text === null) return { confirmed: false };
      if (text.length > MAX_KIT_CHARS)
        throw new BridgeFailure('kit.invalid_file', 'That file is too large to be an emergency kit.');
      return {
        confirmed: true,
        value: await receiveKit(ctx, text, { source: 'file', knownLedger: trading.facts()?.contracts.ledger ?? null }),
      };
    },

    // Text from the window (pasted or scanned): a few slots only (kit-store.ts), one check at a time
    // (kit-checks.ts).
    'kit.importText': (text) =>
      receiveKit(ctx, text, { source: 'window', knownLedger: trading.facts()?.contracts.ledger ?? null }),

    'kit.remove': async (id) => {
      await ctx.kits.ready();
      const stored = ctx.kits.get(id);
      const yes = await ctx.dialogs.confirm(
        confirmRequest({
          capability: 'changes-trust',
          title: 'Remove emergency kit',
          action: 'Remove an emergency kit from this machine',
          confirmLabel: 'Remove kit',
          from: stored.kit.signer,
          notes: [
            `Kit ${stored.kit.fingerprint}. Without it, panic can no longer cancel this account’s orders from this machine.`,
          ],
        }),
      );
      if (!yes) return { confirmed: false };
      ctx.kits.remove(id);
      return { confirmed: true, value: null };
    },

    'kit.panic': async (id) => {
      // The person's own press, seen by main, and once: a window calling panic on its own (or in a
      // loop) would spend the kit's entries and revoke the agent whenever it likes.
      if (!ctx.presence.takeGesture())
        throw new BridgeFailure(
          'kit.needs_person',
          'Panic needs your click or key press: press the Panic button or its hotkey. Nothing was sent.',
        );
      const session = await trading.connected();
      await ctx.kits.ready();
      const { pin } = selected();
      const kits = ctx.kits
        .list()
        .filter((k) => (id === null ? true : k.kit.id === id))
        .filter((k) => kitMatchesPin(k.kit, pin));
      if (kits.length === 0)
        throw new BridgeFailure(
          'kit.none',
          id === null
            ? 'No emergency kit for the selected deployment is kept on this machine.'
            : 'That kit is not kept here, or was signed for another deployment than the selected one.',
        );
      const results = [];
      for (const k of kits) results.push(await runPanic({ session, kits: ctx.kits }, k.kit.id));
      // The account view (when this is the selected account) shows the cancels at once.
      await session.desk.refresh().catch(() => undefined);
      return results;
    },
  };
}
