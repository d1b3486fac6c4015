/**
 * What the user is told when an epoch ends with orders of theirs still resting in it: "BTC 1m #41
 * ended with 3 of your orders resting (2 buys, 1 sell): …" (they can no longer trade).
 */
export function endedOrdersText(market: string, ended: { buys: number; sells: number }): string {
  const n = ended.buys + ended.sells;
  const sides = [
    ended.buys > 0 ? `${ended.buys} buy${ended.buys === 1 ? '' : 's'}` : '',
    ended.sells > 0 ? `${ended.sells} sell${ended.sells === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const which =
    n === 1 ? `1 of your orders resting (${sides[0]})` : `${n} of your orders resting (${sides.join(', ')})`;
  return `${market} ended with ${which}: the exchange took ${n === 1 ? 'it' : 'them'} off the book and the collateral ${n === 1 ? 'it' : 'they'} held is free again.`;
}
