/**
 * The contract chart's price axis stays inside what a contract can be worth, 0¢ to 100¢: the range
 * the chart would autoscale to is widened by its margins, kept inside 0..100 (and at least a couple
 * of cents tall), then narrowed by the margins again, so the visible axis, margins included, never
 * labels a price outside 0..100.
 */

export const CENTS_MIN = 0;
export const CENTS_MAX = 100;
const MIN_SPAN = 2;

/**
 * The data range to report to the chart so that its visible axis stays in 0..100. The chart shows
 * [min − bottom·V, max + top·V] with V = (max − min) / (1 − top − bottom); `top` and `bottom` are its
 * scale margins as fractions of the height.
 */
export function centsRange(
  lo: number,
  hi: number,
  top: number,
  bottom: number,
): { minValue: number; maxValue: number } {
  const inner = 1 - top - bottom;
  const visible = Math.min(Math.max((hi - lo) / inner, MIN_SPAN), CENTS_MAX - CENTS_MIN);
  // The data in the middle of the inner band, then the whole band moved inside 0..100.
  const centred = lo - bottom * visible - (visible * inner - (hi - lo)) / 2;
  const low = Math.min(Math.max(centred, CENTS_MIN), CENTS_MAX - visible);
  return { minValue: low + bottom * visible, maxValue: low + visible - top * visible };
}
