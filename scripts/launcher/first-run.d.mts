// Types for first-run.mjs (plain JavaScript so `npm start` runs on any Node before a build).
export interface DevnetDecision {
  readonly wanted: boolean;
  readonly why?: string;
}

export type FetchResult = { readonly ok: true } | { readonly ok: false; readonly sentence: string };

export interface LaunchSteps {
  readonly nodeVersion: string;
  readonly electronVersion: string;
  readonly minimumNode: string | null;
  findBinary(): string | null;
  fetchBinary(): Promise<FetchResult>;
  devnet(): DevnetDecision;
  startDevnet(): Promise<() => Promise<void>>;
  runApp(): Promise<number>;
  log(line: string): void;
  error(line: string): void;
}

export function minimumNode(range: string | undefined): string | null;
export function nodeAtLeast(version: string, minimum: string): boolean;
export function nodeTooOldSentence(current: string, minimum: string, electronVersion: string): string;
export function fetchFailureSentence(input: {
  output: string;
  electronVersion: string;
  artifact: string;
  mirror?: string | undefined;
}): string;
export function offlineRequested(input: { argv: readonly string[]; env: Record<string, string | undefined> }): boolean;
export function devnetWanted(input: {
  env: Record<string, string | undefined>;
  settingsText: string | null;
  argv?: readonly string[];
}): DevnetDecision;
export function launch(steps: LaunchSteps): Promise<number>;
