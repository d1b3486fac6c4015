/** Orders signed per account in the last minute, for the rate guard: a bounded list of times per account. */
const WINDOW_MS = 60_000;
/** Above any sane limit (the setting's maximum is 6,000); older times are dropped first. */
const KEPT_PER_ACCOUNT = 6_000;
const ACCOUNTS_KEPT = 64;

export class OrderRate {
  readonly #times = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  inLastMinute(account: string): number {
    const list = this.#times.get(account.toLowerCase());
    if (!list) return 0;
    const since = this.#now() - WINDOW_MS;
    while (list.length > 0 && list[0]! <= since) list.shift();
    return list.length;
  }

  note(account: string): void {
    const key = account.toLowerCase();
    let list = this.#times.get(key);
    if (!list) {
      if (this.#times.size >= ACCOUNTS_KEPT) this.#times.delete(this.#times.keys().next().value!);
      this.#times.set(key, (list = []));
    }
    list.push(this.#now());
    if (list.length > KEPT_PER_ACCOUNT) list.shift();
  }
}
