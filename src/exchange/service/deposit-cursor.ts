// The chain wiring's stored deposit cursor (chain-sync.ts). Its own module so the service can remove
// it on a fresh start without loading the chain wiring.
export const DEPOSIT_CURSOR_FILE = 'deposit-cursor.json';
