/** The app's sections, in sidebar order. One row per section drives nav and placeholders. */

export const sectionIds = ['markets', 'trade', 'orders', 'agents', 'funds', 'keys', 'offline', 'settings'] as const;
export type SectionId = (typeof sectionIds)[number];

export interface Section {
  readonly id: SectionId;
  readonly label: string;
  readonly title: string;
  readonly summary: string;
  /** What the finished section will hold, shown on the placeholder. */
  readonly planned: readonly string[];
  /** Column headings of the section's main table, drawn empty until data arrives. */
  readonly columns: readonly string[];
}

export const sections: readonly Section[] = [
  {
    id: 'markets',
    label: 'Markets',
    title: 'Markets',
    summary: 'Binary up/down markets by asset and epoch.',
    planned: ['Strike and live oracle price per asset', 'Epoch countdown', 'Best up and down prices'],
    columns: ['Asset', 'Epoch', 'Strike', 'Oracle', 'Ends in', 'Up', 'Down'],
  },
  {
    id: 'trade',
    label: 'Trade',
    title: 'Trade',
    summary: 'Price ladder and order entry for one market.',
    planned: ['Order book ladder per asset and epoch', 'Order ticket with hotkeys', 'Cancel and cancel-and-replace'],
    columns: ['Price', 'Up size', 'Down size', 'Mine'],
  },
  {
    id: 'orders',
    label: 'Orders',
    title: 'Orders and positions',
    summary: 'Open orders, fills, positions and P&L.',
    planned: ['Open orders with cancel and cancel-all', 'Positions per epoch', 'Realised and unrealised P&L'],
    columns: ['Market', 'Side', 'Price', 'Size', 'Filled', 'Status', 'Placed'],
  },
  {
    id: 'agents',
    label: 'Agents',
    title: 'Agent wallets',
    summary: 'Approve, inspect and revoke agent wallets that trade for a master account.',
    planned: ['Approve an agent (two signatures)', 'Status and expiry', 'Revoke'],
    columns: ['Agent', 'Master', 'Expires', 'Status'],
  },
  {
    id: 'funds',
    label: 'Funds',
    title: 'Funds',
    summary: 'Balances, deposits, withdrawals and claims.',
    planned: ['Deposit with approve or permit', 'Withdraw (confirmed in a dialog owned by the app core)', 'Claim all resolved epochs'],
    columns: ['Asset', 'Available', 'In orders', 'Claimable', 'Pending'],
  },
  {
    id: 'keys',
    label: 'Keys',
    title: 'Keys',
    summary: 'Accounts held in the operating system keychain.',
    planned: ['Create or import (private key, mnemonic, keystore)', 'Export as encrypted keystore', 'Label and delete'],
    columns: ['Label', 'Address', 'Source', 'Created'],
  },
  {
    id: 'offline',
    label: 'Offline signing',
    title: 'Offline signing',
    summary: 'Sign actions with no network and export the payload for another machine.',
    planned: ['Build an action from a form', 'Review the typed data before signing', 'Export the signed payload'],
    columns: ['Action', 'Account', 'Signed', 'Exported'],
  },
  {
    id: 'settings',
    label: 'Settings',
    title: 'Settings',
    summary: 'Deployment, appearance and safety preferences.',
    planned: ['Deployment (devnet or a configured exchange)', 'Pinned chain id and verifying contract', 'Theme'],
    columns: ['Setting', 'Value'],
  },
];
