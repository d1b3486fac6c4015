/** The app's sections, in sidebar order. One row per section drives the navigation. */

export const sectionIds = ['markets', 'trade', 'orders', 'agents', 'funds', 'keys', 'offline', 'settings'] as const;
export type SectionId = (typeof sectionIds)[number];

export interface Section {
  readonly id: SectionId;
  readonly label: string;
  readonly title: string;
  readonly summary: string;
}

export const sections: readonly Section[] = [
  {
    id: 'markets',
    label: 'Markets',
    title: 'Markets',
    summary: 'Binary up/down markets by asset and epoch.',
  },
  {
    id: 'trade',
    label: 'Trade',
    title: 'Trade',
    summary: 'Price ladder and order entry for one market.',
  },
  {
    id: 'orders',
    label: 'Orders',
    title: 'Orders and positions',
    summary: 'Open orders, fills, positions and P&L.',
  },
  {
    id: 'agents',
    label: 'Agents',
    title: 'Agent wallets',
    summary: 'Approve, inspect and revoke agent wallets that trade for a master account.',
  },
  {
    id: 'funds',
    label: 'Funds',
    title: 'Funds',
    summary: 'Balances, deposits, withdrawals and claims.',
  },
  {
    id: 'keys',
    label: 'Keys',
    title: 'Keys',
    summary: 'Accounts held in the operating system keychain.',
  },
  {
    id: 'offline',
    label: 'Offline signing',
    title: 'Offline signing',
    summary: 'Sign actions with no network and export the payload for another machine.',
  },
  {
    id: 'settings',
    label: 'Settings',
    title: 'Settings',
    summary: 'Deployment, appearance and safety preferences.',
  },
];
