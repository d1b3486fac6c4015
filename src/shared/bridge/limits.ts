/**
 * The exchange's order limits as a trader reads them (docs/order-limits.md): main validates every
 * ticket against them before signing and the ticket shows them as hints. Sizes in contracts,
 * prices in cents, as typed.
 */
export const ORDER_LIMITS = {
  minSize: '0.01',
  /** The exchange refuses larger orders even though the signed struct could carry 10^9 contracts. */
  maxSize: '100,000',
  sizeStep: '0.01',
  minPriceCents: '0.1',
  maxPriceCents: '99.9',
  priceStepCents: '0.1',
} as const;
