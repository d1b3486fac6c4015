/** A request as both machines show it: its description in words (from the structs alone) and its fingerprint. */
import type { PendingRequestView, ReceivedRequestView, RequestWords } from '../../../shared/bridge/airgap';
import { describeRequest, type UnsignedRequest } from '../../../client';
import type { PendingEntry, ReceivedEntry } from './book';

export function requestWords(request: UnsignedRequest): RequestWords {
  const d = describeRequest(request);
  return {
    id: request.id,
    kind: request.kind,
    title: d.title,
    lines: [...d.lines, `Signer: ${request.signer}.`],
    fingerprint: request.fingerprint,
    signer: request.signer,
    chainId: request.domain.chainId.toString(),
    verifyingContract: request.domain.verifyingContract,
    movesValue: d.movesValue,
    createdAt: request.createdAt,
  };
}

export function pendingView(entry: PendingEntry): PendingRequestView {
  return { ...requestWords(entry.request), state: entry.state, outcome: entry.outcome };
}

export function receivedView(entry: ReceivedEntry, domainPinned: boolean): ReceivedRequestView {
  return { ...requestWords(entry.request), domainPinned, signed: entry.response !== null };
}
