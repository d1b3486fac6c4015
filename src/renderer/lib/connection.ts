import type { AppInfo } from '../../shared/bridge';

/**
 * What the window knows about its link to main (the app's own process, which holds the keys). People
 * read it as the app: the labels never name a "core".
 */
export type Connection =
  | { readonly state: 'checking' }
  | { readonly state: 'absent' }
  | { readonly state: 'connected'; readonly info: AppInfo }
  | { readonly state: 'failed'; readonly code: string; readonly message: string };

export function connectionLabel(connection: Connection): string {
  switch (connection.state) {
    case 'checking':
      return 'Connecting…';
    case 'absent':
      return 'Not connected to the app';
    case 'connected':
      return 'Connected';
    case 'failed':
      return 'App error';
  }
}

export type ConnectionTone = 'pending' | 'ok' | 'bad';

export function connectionTone(connection: Connection): ConnectionTone {
  if (connection.state === 'connected') return 'ok';
  if (connection.state === 'checking') return 'pending';
  return 'bad';
}
