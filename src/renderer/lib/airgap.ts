/**
 * The window's side of the air-gapped round trip: actions of a watch-only account are prepared for
 * offline signing (main drafts them; the window only names the action), and the lists both machines keep.
 */
import { get, writable } from 'svelte/store';
import type { AirgapAction, PendingRequestView, QrShowView, ReceivedRequestView, SignAs } from '../../shared/bridge';
import { pushNotice } from './notices';
import { account, call, isWatchOnly } from './terminal';

export const pendingRequests = writable<PendingRequestView[]>([]);
export const receivedRequests = writable<ReceivedRequestView[]>([]);

export async function refreshAirgap(): Promise<void> {
  const [pending, received] = await Promise.all([call('airgap.pending'), call('airgap.received')]);
  if (pending) pendingRequests.set(pending);
  if (received) receivedRequests.set(received);
}

/** Main drafts the unsigned request; the notice names its fingerprint and where to carry it on. */
export async function prepareOffline(master: string, action: AirgapAction): Promise<PendingRequestView | null> {
  const prepared = await call('airgap.prepare', { master, action });
  if (prepared) {
    pushNotice(
      'success',
      `Prepared for offline signing: ${prepared.title}, fingerprint ${prepared.fingerprint}. Carry it to the signing machine from the Offline screen.`,
    );
    await refreshAirgap();
  }
  return prepared;
}

/** The selected master when it is watch-only here and the master (not its agent) would sign. */
export function offlineMaster(signAs: SignAs): string | null {
  const master = get(account)?.selection.master ?? null;
  return signAs === 'master' && isWatchOnly(master) ? master : null;
}

/**
 * For a watch-only master, the action is prepared for offline signing instead of failing: true when
 * it was (or was refused with the core's sentence); false when the caller should sign as usual.
 */
export async function preparedInstead(signAs: SignAs, action: AirgapAction): Promise<boolean> {
  const master = offlineMaster(signAs);
  if (!master) return false;
  await prepareOffline(master, action);
  return true;
}

type EnvelopeKind = 'request' | 'response';

/** An envelope this machine made, saved as a file through main's dialog; the notice says where. */
export async function saveEnvelope(kind: EnvelopeKind, id: string): Promise<void> {
  const saved = await call('airgap.saveFile', { kind, id });
  const what = kind === 'request' ? 'Unsigned request' : 'Signed response';
  if (saved?.confirmed) pushNotice('success', `${what} saved to ${saved.value.path}`);
}

/** An envelope this machine made, to show as QR codes: main reads and checks its own envelope text. */
export async function envelopeQr(kind: EnvelopeKind, id: string): Promise<QrShowView | null> {
  const envelope = await call('airgap.envelopeText', { kind, id });
  return envelope ? await call('airgap.qrShow', { text: envelope.text }) : null;
}
