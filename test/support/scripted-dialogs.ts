/**
 * Dialogs answered from a script instead of a person: the unit tests and the end-to-end harness
 * queue answers, and every request is recorded so a test can check what the user was shown.
 * An unexpected dialog (empty queue, or the wrong kind) fails the call instead of guessing.
 */
import { writeFileSync } from 'node:fs';
import type { ConfirmRequest, Dialogs, OpenFileRequest, SaveFileRequest } from '../../src/main/core/dialogs/dialogs';

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

/** What a dialog with no scripted answer does: fail the call (default), say no / cancel, or never answer. */
export type UnscriptedMode = 'fail' | 'no' | 'never';

export interface ScriptedDialogs extends Dialogs {
  answer(...answers: DialogAnswer[]): void;
  /** Everything shown so far, oldest first (saved content is not recorded). */
  readonly shown: DialogRecord[];
  pending(): number;
  /** For attack tests: how dialogs nobody scripted are answered. */
  whenUnscripted(mode: UnscriptedMode): void;
  /** Dialogs left open by 'never' that are still waiting. */
  waiting(): number;
  /** Closes every waiting dialog as if the user cancelled it; returns how many there were. */
  releaseWaiting(): number;
}

export function createScriptedDialogs(): ScriptedDialogs {
  const queue: DialogAnswer[] = [];
  const shown: DialogRecord[] = [];
  const waiting: (() => void)[] = [];
  let mode: UnscriptedMode = 'fail';
  /** The scripted answer, or undefined when the unscripted mode answers instead. */
  function next<K extends DialogAnswer['kind']>(kind: K): Extract<DialogAnswer, { kind: K }> | undefined {
    const answer = queue.shift();
    if (!answer) {
      if (mode !== 'fail') return undefined;
      throw new Error(`A ${kind} dialog opened but the test scripted no answer.`);
    }
    if (answer.kind !== kind)
      throw new Error(`A ${kind} dialog opened but the next scripted answer is for ${answer.kind}.`);
    return answer as Extract<DialogAnswer, { kind: K }>;
  }
  /** 'no' cancels at once; 'never' leaves the dialog open until releaseWaiting() cancels it. */
  function unscripted<T>(cancelled: T): Promise<T> {
    if (mode === 'no') return Promise.resolve(cancelled);
    return new Promise<T>((resolve) => waiting.push(() => resolve(cancelled)));
  }
  return {
    shown,
    answer: (...answers) => void queue.push(...answers),
    pending: () => queue.length,
    whenUnscripted: (next) => void (mode = next),
    waiting: () => waiting.length,
    releaseWaiting: () => {
      const open = waiting.splice(0);
      for (const cancel of open) cancel();
      return open.length;
    },
    confirm(request) {
      shown.push({ kind: 'confirm', request });
      const answer = next('confirm');
      return answer ? Promise.resolve(answer.yes) : unscripted(false);
    },
    saveFile({ content, ...request }) {
      shown.push({ kind: 'saveFile', request });
      const answer = next('saveFile');
      if (!answer) return unscripted<string | null>(null);
      if (answer.path !== null) writeFileSync(answer.path, content, { mode: 0o600 });
      return Promise.resolve(answer.path);
    },
    openFile(request) {
      shown.push({ kind: 'openFile', request });
      const answer = next('openFile');
      return answer ? Promise.resolve(answer.content) : unscripted<string | null>(null);
    },
  };
}
