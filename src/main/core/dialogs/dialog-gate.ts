/**
 * One dialog owned by main at a time. A window that fires many dangerous calls at once would
 * otherwise stack dialogs until the user confirms one they did not expect; here a second dialog
 * while one is open is refused with a sentence, and nothing is done for it. A dialog that is never
 * answered keeps only its own call waiting: every other call runs (see the capability check in
 * app-core, which refuses moves-value and changes-trust calls while a dialog is open).
 */
import { BridgeFailure } from '../bridge-runtime';
import type { Dialogs } from './dialogs';

export interface DialogGate extends Dialogs {
  /** True while a dialog is on screen. */
  isOpen(): boolean;
}

export function dialogBusy(): BridgeFailure {
  return new BridgeFailure(
    'dialog.busy',
    'Another confirmation from the app is already open: answer it first. Nothing was done for this request.',
  );
}

export function gateDialogs(inner: Dialogs): DialogGate {
  let open = false;
  const once = async <T>(show: () => Promise<T>): Promise<T> => {
    if (open) throw dialogBusy();
    open = true;
    try {
      return await show();
    } finally {
      open = false;
    }
  };
  return {
    isOpen: () => open,
    confirm: (request) => once(() => inner.confirm(request)),
    saveFile: (request) => once(() => inner.saveFile(request)),
    openFile: (request) => once(() => inner.openFile(request)),
  };
}
