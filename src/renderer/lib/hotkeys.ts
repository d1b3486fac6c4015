/** Hotkey matching: turns a key event into the settings' combo syntax ("Ctrl+Shift+B"). */
import type { HotkeyAction } from '../../shared/settings-schema';

export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

export interface TargetLike {
  readonly tagName?: string;
  readonly isContentEditable?: boolean;
}

const MODIFIER_KEYS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'AltGraph', 'CapsLock']);

/** The combo for an event, or null for a bare modifier press. Letters are upper case as in settings. */
export function comboFromEvent(event: KeyLike): string | null {
  if (MODIFIER_KEYS.has(event.key)) return null;
  const key = event.key === ' ' ? 'Space' : event.key.length === 1 ? event.key.toUpperCase() : event.key;
  return [event.ctrlKey && 'Ctrl', event.altKey && 'Alt', event.shiftKey && 'Shift', event.metaKey && 'Meta', key]
    .filter(Boolean)
    .join('+');
}

/** Keys typed into a field belong to the field, never to a hotkey. */
export function isTypingTarget(target: TargetLike | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

export function matchHotkey(
  bindings: Readonly<Record<HotkeyAction, string>>,
  event: KeyLike,
  target: TargetLike | null,
): HotkeyAction | null {
  if (isTypingTarget(target)) return null;
  const combo = comboFromEvent(event);
  if (!combo) return null;
  for (const [action, bound] of Object.entries(bindings) as [HotkeyAction, string][]) {
    if (bound === combo) return action;
  }
  return null;
}

/**
 * Escape pressed in a field leaves the field (the caller blurs it), so the hotkeys work again; it
 * is not also the "cancel all" hotkey.
 */
export function leavesField(event: KeyLike, target: TargetLike | null): boolean {
  return (
    event.key === 'Escape' &&
    !event.ctrlKey &&
    !event.altKey &&
    !event.shiftKey &&
    !event.metaKey &&
    isTypingTarget(target)
  );
}

/**
 * The time in force of a join (an order resting at the best bid or ask): the prepared ticket's when
 * it is a resting kind (GTC, or ALO for post-only), else GTC. The ticket itself is never changed.
 */
export function joinTimeInForce(ticketTif: 'GTC' | 'IOC' | 'FOK' | 'ALO'): 'GTC' | 'ALO' {
  return ticketTif === 'ALO' ? 'ALO' : 'GTC';
}

export interface CancellableOrder {
  readonly orderId: string;
  readonly assetId: string;
  readonly epoch: string;
  readonly placedAt: number;
}

/**
 * "Cancel my last order", pressed again before the first cancel is answered, takes the next newest
 * order: an order whose cancel is on its way is skipped until it either leaves the open orders or its
 * cancel fails.
 */
export class LastOrderCanceller {
  readonly #pending = new Set<string>();

  /** The newest open order of the market not already being cancelled (marked as being cancelled), or null. */
  take<T extends CancellableOrder>(orders: readonly T[], market: { assetId: string; epoch: string }): T | null {
    const open = new Set(orders.map((o) => o.orderId.toLowerCase()));
    for (const id of this.#pending) if (!open.has(id)) this.#pending.delete(id);
    let newest: T | null = null;
    for (const o of orders) {
      if (o.assetId !== market.assetId || o.epoch !== market.epoch || this.#pending.has(o.orderId.toLowerCase()))
        continue;
      if (!newest || o.placedAt > newest.placedAt) newest = o;
    }
    if (newest) this.#pending.add(newest.orderId.toLowerCase());
    return newest;
  }

  /** The cancel was answered: a failed one makes the order eligible again. */
  done(orderId: string, cancelled: boolean): void {
    if (!cancelled) this.#pending.delete(orderId.toLowerCase());
  }
}

/**
 * What a hotkey order says when the side it needs is empty (it sends nothing): a trader pressing B
 * or Shift+B must learn why nothing happened, in words, with the market named.
 */
export function noQuoteText(action: 'buyAtBest' | 'sellAtBest' | 'joinBid' | 'joinAsk', market: string): string {
  switch (action) {
    case 'buyAtBest':
      return `No ask to buy from on ${market}.`;
    case 'sellAtBest':
      return `No bid to sell to on ${market}.`;
    case 'joinBid':
      return `No bid to join on ${market}.`;
    case 'joinAsk':
      return `No ask to join on ${market}.`;
  }
}
