/**
 * Panic: send, for every market a kit covers, the first unused pre-signed cancel-all of its current
 * epoch, and the agent revocation if the kit holds one not yet used. No key is needed: the bodies were
 * signed on the machine that holds the master key.
 *
 * An entry is recorded as used as soon as the exchange answers it, or answers that it already
 * processed it (ENTRY_PROCESSED: another copy of the kit, or an earlier panic whose answer was lost),
 * and is never sent again; after ENTRY_PROCESSED the next unused entry of that epoch goes. An entry
 * whose send got no answer stays unused: the exchange keys each entry by its digest, so sending the
 * same bytes again can only be executed once or answered ENTRY_PROCESSED.
 *
 * An entry is spent only where it does something: a cancel-all only where the account has resting
 * orders in that epoch, the revocation only while an agent is approved. So neither a second press
 * nor a window calling panic in a loop can use up the kit while there is nothing to cancel.
 */
import type { PanicOutcome, PanicResult } from '../../../shared/bridge';
import { ExchangeClient, ExchangeError, panicPlan, type EmergencyKit, type KitSend } from '../../../client';
import type { TradingSession } from '../session/session';
import type { KitStore } from './kit-store';
import { statusWord } from '../../../shared/status-words';

const DUPLICATE_CODES = new Set(['ENTRY_PROCESSED', 'REPLACEMENT_ENTRY_PROCESSED']);

export interface PanicDeps {
  readonly session: TradingSession;
  readonly kits: KitStore;
  /** Overrides how a body is sent (tests); by default the exchange client's submitSigned. */
  readonly submit?: (send: KitSend) => Promise<{ status: string }>;
}

function marketName(kit: EmergencyKit, assetId: bigint, epoch: bigint): string {
  const m = kit.markets.find((x) => x.assetId === assetId);
  return `${m?.label ?? `asset ${assetId}`} #${epoch}`;
}

/** The current epoch of each market of the kit, from the exchange (the watcher's as a fallback). */
async function currentEpochs(session: TradingSession, kit: EmergencyKit): Promise<Map<bigint, bigint>> {
  const out = new Map<bigint, bigint>();
  await Promise.all(
    kit.markets.map(async (m) => {
      try {
        out.set(m.assetId, (await session.reader.getAsset(m.assetId)).epoch);
      } catch {
        const known = session.epochs.current(m.assetId);
        if (known !== undefined) out.set(m.assetId, known);
      }
    }),
  );
  return out;
}

/** Whether sending this entry would do anything; true when it cannot be told (panic errs on sending). */
async function worthSending(session: TradingSession, kit: EmergencyKit, send: KitSend): Promise<boolean> {
  try {
    if (send.action.kind === 'cancels') {
      const { assetId, epoch } = send.action.request.cancel;
      const book = await session.reader.getBookOrders(assetId, epoch, kit.signer);
      return book.buys.length + book.sells.length > 0;
    }
    return (await session.reader.getAgentApproval(kit.signer)).status === 'active';
  } catch {
    return true;
  }
}

function describe(kit: EmergencyKit, send: KitSend): string {
  if (send.action.kind === 'cancels') {
    const { assetId, epoch } = send.action.request.cancel;
    return `Cancel all on ${marketName(kit, assetId, epoch)}`;
  }
  return 'Revoke the agent';
}

export async function runPanic(deps: PanicDeps, kitId: string): Promise<PanicResult> {
  const { session, kits } = deps;
  const kit = kits.get(kitId).kit;
  const client = new ExchangeClient({
    baseUrl: session.deployment.httpUrl,
    deployment: () => session.signers.signingContext(),
  });
  const submit =
    deps.submit ?? (async (send: KitSend) => await client.submitSigned(send.action.kind, send.action.body));
  const epochs = await currentEpochs(session, kit);
  const outcomes: PanicOutcome[] = [];
  // Markets (and the revocation) still waiting for an entry that is sent or skipped.
  const pending = new Set<string>([...epochs.keys()].map(String));
  let revocationPending = kit.revocation !== null;
  let gaps: string[] = kit.markets
    .filter((m) => !epochs.has(m.assetId))
    .map((m) => `The current epoch of ${m.label} could not be read, so nothing was sent for it.`);
  // Each round spends at most one entry per market; a market goes round again only after ENTRY_PROCESSED.
  for (let round = 0; round <= kit.perEpoch; round++) {
    const current = new Map([...epochs].filter(([a]) => pending.has(a.toString())));
    const plan = panicPlan(kit, current, kits.get(kitId).used, { revokeAgent: revocationPending });
    gaps = [...gaps, ...plan.gaps.map((g) => g.sentence)];
    for (const g of plan.gaps) pending.delete(g.assetId.toString());
    if (plan.sends.length === 0) break;
    await Promise.all(
      plan.sends.map(async (send) => {
        const what = describe(kit, send);
        const key = send.action.kind === 'cancels' ? send.action.request.cancel.assetId.toString() : null;
        const done = (): void => {
          if (key === null) revocationPending = false;
          else pending.delete(key);
        };
        if (!(await worthSending(session, kit, send))) {
          done();
          outcomes.push({
            what,
            result: 'skipped',
            sentence:
              send.action.kind === 'cancels'
                ? `${what}: the account has no resting orders there, so the entry is kept for later.`
                : 'No agent is approved now, so the revocation is kept for later.',
          });
          return;
        }
        try {
          const r = await submit(send);
          kits.markUsed(kitId, send.digest);
          done();
          outcomes.push({
            what,
            result: 'sent',
            sentence: `${what}: the exchange answered: ${statusWord(String(r.status))}.`,
          });
        } catch (error) {
          if (error instanceof ExchangeError && DUPLICATE_CODES.has(error.code)) {
            // Used already (elsewhere or by a send whose answer was lost): never again; the next entry goes.
            kits.markUsed(kitId, send.digest);
            outcomes.push({
              what,
              result: 'already-used',
              sentence: `${what}: the exchange had already processed this entry, so it is marked used and the next one is tried.`,
            });
            return;
          }
          done();
          const why = error instanceof ExchangeError ? error.sentence : 'the exchange could not be reached';
          outcomes.push({ what, result: 'failed', sentence: `${what} failed: ${why}` });
        }
      }),
    );
    if (pending.size === 0 && !revocationPending) break;
  }
  return { kitId, outcomes, gaps };
}
