/** "5m" → "5 minutes": the period of a market in words. */
export function formatTimeframeLabel(timeframe: string): string {
  const m = /^([0-9]+)([smhdwMy])$/.exec(timeframe);
  if (!m) return timeframe;
  const n = Number(m[1]);
  const unit = ({ s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week', M: 'month', y: 'year' } as const)[
    m[2] as 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y'
  ];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
