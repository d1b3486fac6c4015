import type { AppInfo } from '../../shared/bridge';

/** What the window knows about its link to the app core (main process). */
export type Connection =
  | { readonly state: 'checking' }
  | { readonly state: 'absent' }
  | { readonly state: 'connected'; readonly info: AppInfo }
  | { readonly state: 'failed'; readonly code: string; readonly message: string };

export function connectionLabel(connection: Connection): string {
  switch (connection.state) {
    case 'checking':
      return 'Connecting to app core…';
    case 'absent':
      return 'Not connected to the app core';
    case 'connected':
      return 'App core connected';
    case 'failed':
      return 'App core error';
  }
}

export type ConnectionTone = 'pending' | 'ok' | 'bad';

export function connectionTone(connection: Connection): ConnectionTone {
  if (connection.state === 'connected') return 'ok';
  if (connection.state === 'checking') return 'pending';
  return 'bad';
}
