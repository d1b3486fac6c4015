/// <reference types="vite/client" />
import type { TerminalApi } from '../shared/bridge';

declare global {
  interface Window {
    /** Present only inside the desktop app (exposed by the preload). */
    readonly terminal?: TerminalApi;
  }
}

export {};
