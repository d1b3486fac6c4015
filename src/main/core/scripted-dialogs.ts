/**
 * Dialogs answered from a script instead of a person: the unit tests and the end-to-end harness
 * queue answers, and every request is recorded so a test can check what the user was shown.
 * An unexpected dialog (empty queue, or the wrong kind) fails the call instead of guessing.
 */
import { writeFileSync } from 'node:fs';
import type { ConfirmRequest, Dialogs, OpenFileRequest, SaveFileRequest } from './dialogs';

export type DialogAnswer =
  | { readonly kind: 'confirm'; readonly yes: boolean }
  /** path null = the user cancelled; otherwise the content is written there. */
  | { readonly kind: 'saveFile'; readonly path: string | null }
  /** content null = the user cancelled. */
  | { readonly kind: 'openFile'; readonly content: string | null };

export type DialogRecord =
  | { readonly kind: 'confirm'; readonly request: ConfirmRequest }
  | { readonly kind: 'saveFile'; readonly request: Omit<SaveFileRequest, 'content'> }
  | { readonly kind: 'openFile'; readonly request: OpenFileRequest };

export interface ScriptedDialogs extends Dialogs {
  answer(...answers: DialogAnswer[]): void;
  /** Everything shown so far, oldest first (saved content is not recorded). */
  readonly shown: DialogRecord[];
  pending(): number;
}

export function createScriptedDialogs(): ScriptedDialogs {
  const queue: DialogAnswer[] = [];
  const shown: DialogRecord[] = [];
  function next<K extends DialogAnswer['kind']>(kind: K): Extract<DialogAnswer, { kind: K }> {
    const answer = queue.shift();
    if (!answer) throw new Error(`A ${kind} dialog opened but the test scripted no answer.`);
    if (answer.kind !== kind) throw new Error(`A ${kind} dialog opened but the next scripted answer is for ${answer.kind}.`);
    return answer as Extract<DialogAnswer, { kind: K }>;
  }
  return {
    shown,
    answer: (...answers) => void queue.push(...answers),
    pending: () => queue.length,
    confirm(request) {
      shown.push({ kind: 'confirm', request });
      return Promise.resolve(next('confirm').yes);
    },
    saveFile({ content, ...request }) {
      shown.push({ kind: 'saveFile', request });
      const { path } = next('saveFile');
      if (path !== null) writeFileSync(path, content, { mode: 0o600 });
      return Promise.resolve(path);
    },
    openFile(request) {
      shown.push({ kind: 'openFile', request });
      return Promise.resolve(next('openFile').content);
    },
  };
}
