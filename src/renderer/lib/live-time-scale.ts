/**
 * The time axis of a live chart. Our series leave gaps as whitespace points (a mid with one side of
 * the book empty, a fair value not known yet), and one series' whitespace often makes the time point
 * another series then fills in the same second. lightweight-charts by default does not scroll when a
 * value replaces whitespace: the new point is added off the right edge, and once the last point is out
 * of view the chart never follows again (the contract chart stood still at its first fair value while
 * the book moved on). Scrolling on that replacement keeps the newest second in view.
 */
export const LIVE_TIME_SCALE = {
  timeVisible: true,
  secondsVisible: true,
  borderVisible: false,
  shiftVisibleRangeOnNewBar: true,
  allowShiftVisibleRangeOnWhitespaceReplacement: true,
} as const;
