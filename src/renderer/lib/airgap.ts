/**
 * The window's side of the air-gapped round trip: actions of a watch-only account are prepared for
 * offline signing (main drafts them; the window only names the action), and the lists both machines keep.
 */
import { writable } from 'svelte/store';
import type { AirgapAction, PendingRequestView, ReceivedRequestView } from '../../shared/bridge';
import { pushNotice } from './notices';
import { call } from './terminal';

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
