/**
 * Dialogs owned by main: the only place a user confirms a dangerous action or picks a file.
 * Electron implements it with its dialog module (src/main/electron/dialogs.ts); the
 * end-to-end harness answers from a queue the test scripts. The window never answers one.
 */
export interface ConfirmRequest {
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  /** The label of the button that says yes, e.g. "Delete key". */
  readonly confirmLabel: string;
}

export interface SaveFileRequest {
  readonly title: string;
  readonly defaultName: string;
  /** What to write; the implementation writes it to the chosen path. */
  readonly content: string;
}

export interface OpenFileRequest {
  readonly title: string;
}

export interface Dialogs {
  /** True only when the user pressed the confirm button. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** The path written, or null when the user cancelled. */
  saveFile(request: SaveFileRequest): Promise<string | null>;
  /** The file's text, or null when the user cancelled. */
  openFile(request: OpenFileRequest): Promise<string | null>;
}
