// What the boot driver does in the built app's practice modes, through the bridge handlers main
// registered (as the window calls them). practice-first: a first run (no deployment, no devnet)
// enters practice, waits for a live book, adds play money and buys from a bot in an hourly market;
// practice-restart: the same app data folder, started again, finds practice selected and the
// position where it was. Returns facts for test/built/practice.test.ts to check.
const PASSWORD = 'practice built test password';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `good` holds (every 100 ms, up to `ms`); throws with the last value otherwise. */
async function until(what, read, good, ms = 30_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    last = await read();
    if (good(last)) return last;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(last).slice(0, 400)})`);
}

const value = (outcome, what) => {
  if (!outcome?.ok) throw new Error(`${what} failed: ${JSON.stringify(outcome?.error ?? outcome)}`);
  return outcome.value;
};

export async function runPractice(mode, call, dialogTitles) {
  if (mode === 'practice-first') return first(call, dialogTitles);
  return restart(call);
}

async function first(call, dialogTitles) {
  const settingsBefore = value(await call('settings.get'), 'settings.get');
  value(await call('lock.setPassword', [{ password: PASSWORD, passwordAgain: PASSWORD }]), 'lock.setPassword');
  // The password's own dialog (a keychain vault asks) came before practice: only practice's are returned.
  const dialogsBefore = dialogTitles.length;
  const chosen = performance.now();
  const started = value(await call('practice.start'), 'practice.start');
  const startMs = performance.now() - chosen;
  // A live book: a market whose bid and ask come from the streamed book.
  const markets = await until(
    'a live practice book',
    async () => value(await call('markets.list'), 'markets.list'),
    (list) => list.some((m) => m.bestBid !== null && m.bestAsk !== null),
  );
  const firstBookMs = performance.now() - chosen;
  const hourly = await until(
    'an hourly market with an ask',
    async () => value(await call('markets.list'), 'markets.list'),
    (list) => list.some((m) => m.periodSeconds === 3600 && m.bestAsk !== null && !m.resolved),
  ).then((list) => list.find((m) => m.periodSeconds === 3600 && m.bestAsk !== null && !m.resolved));
  const sub = value(
    await call('markets.subscribeBook', [{ assetId: hourly.assetId, epoch: hourly.epoch }]),
    'markets.subscribeBook',
  );
  const funds = value(await call('practice.addFunds'), 'practice.addFunds');
  const askCents = (Number(hourly.bestAsk) / 10_000).toString();
  const order = value(
    await call('orders.place', [
      {
        assetId: hourly.assetId,
        epoch: hourly.epoch,
        side: 'buy',
        price: askCents,
        size: '2',
        timeInForce: 'IOC',
        signAs: 'master',
      },
    ]),
    'orders.place',
  );
  const account = await until(
    'the bought position',
    async () => value(await call('account.get'), 'account.get'),
    (a) => a.positions.some((p) => p.assetId === hourly.assetId && p.epoch === hourly.epoch && p.size !== '0'),
  );
  return {
    deploymentsBefore: settingsBefore.deployments.length,
    selectedBefore: settingsBefore.selectedDeploymentId,
    started,
    startMs,
    firstBookMs,
    liveMarkets: markets.filter((m) => m.bestBid !== null && m.bestAsk !== null).length,
    symbols: [...new Set(markets.map((m) => m.symbol))].sort(),
    book: { bids: sub.book.bids.length, asks: sub.book.asks.length },
    funds,
    order,
    market: { assetId: hourly.assetId, epoch: hourly.epoch },
    position: account.positions.find((p) => p.assetId === hourly.assetId && p.epoch === hourly.epoch),
    master: account.selection.master,
    keys: value(await call('keys.list'), 'keys.list'),
    connection: value(await call('app.connection'), 'app.connection'),
    dialogTitles: dialogTitles.slice(dialogsBefore),
  };
}

async function restart(call) {
  const status = await until(
    'practice running again',
    async () => value(await call('practice.status'), 'practice.status'),
    (s) => s.state === 'ready' || s.state === 'failed',
  );
  const account = await until(
    'the account read again',
    async () => value(await call('account.get'), 'account.get'),
    (a) => a.balance !== null && a.positions.length > 0,
  );
  return { status, selection: account.selection, positions: account.positions, balance: account.balance };
}
