/**
 * Main's dialogs while practice is selected: every title starts with "Practice" and every text says
 * it is play money, so a dialog of practice is never read as one about money (issue 20, item 3).
 */
import type { Dialogs } from '../dialogs/dialogs';

export const PRACTICE_DIALOG_NOTE =
  'PRACTICE: play money on a practice exchange on this computer. Nothing here is real money, and no practice signature is valid anywhere else.';

export function practiceDialogs(inner: Dialogs, inPractice: () => boolean): Dialogs {
  return {
    confirm: (request) =>
      inner.confirm(
        inPractice() && !request.title.startsWith('Practice')
          ? {
              ...request,
              title: `Practice · ${request.title}`,
              message: `Practice: ${request.message}`,
              detail: `${PRACTICE_DIALOG_NOTE}\n\n${request.detail}`,
            }
          : request,
      ),
    saveFile: (request) =>
      inner.saveFile(inPractice() ? { ...request, title: `Practice · ${request.title}` } : request),
    openFile: (request) =>
      inner.openFile(inPractice() ? { ...request, title: `Practice · ${request.title}` } : request),
  };
}
