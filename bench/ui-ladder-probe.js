// Page-side instrumentation for bench/ui-ladder.bench.ts, injected after the harness's
// `window.terminal` and before the app's scripts. Exposes window.__ui.start(opts) / .stop().
/* global window, document, requestAnimationFrame, MutationObserver, Element */
(() => {
  let rec = null;
  const ui = {};
  Object.defineProperty(window, '__ui', { value: ui });
  // One channel: messages are delivered in order, so a FIFO of start times pairs them up.
  const updateChannel = new MessageChannel();
  const pendingUpdates = [];
  updateChannel.port1.onmessage = () => {
    const t0 = pendingUpdates.shift();
    if (t0 !== undefined && rec) rec.updates.push({ t0, cost: performance.now() - t0 });
  };
  // Registered before the app's listener, so this runs first for every `book` event; the
  // message fires once the app's handler and Svelte's DOM flush (microtasks) are done.
  window.terminal.on('book', () => {
    if (!rec) return;
    pendingUpdates.push(performance.now());
    updateChannel.port2.postMessage(0);
  });
  // A message posted from rAF runs after that frame's style, layout and paint.
  const frameChannel = new MessageChannel();
  let frameStart = 0;
  let frameCount = 0;
  let pointer = null;
  frameChannel.port1.onmessage = () => {
    if (!rec) return;
    rec.frames.push({ start: frameStart, renderEnd: performance.now() });
    // Layout is clean right after rendering, so this hit test is cheap.
    if (pointer && ++frameCount % 10 === 0) {
      ui.pointerChecks++;
      const hit = document.elementFromPoint(pointer.x, pointer.y);
      const el = hit ? hit.closest('[data-price]') : null;
      if (el !== pointer.el || (el && el.getBoundingClientRect().top !== pointer.top)) ui.pointerMoves++;
    }
  };
  const loop = () => {
    if (!rec) return;
    frameStart = performance.now();
    frameChannel.port2.postMessage(0);
    requestAnimationFrame(loop);
  };
  const longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  let observer = null;
  let feeder = null;

  ui.start = (opts) => {
    rec = { frames: [], updates: [] };
    Object.assign(ui, {
      rowsAdded: 0,
      rowsRemoved: 0,
      textChanges: 0,
      pointerChecks: 0,
      pointerMoves: 0,
      delivered: 0,
      t0: performance.now(),
    });
    longTasks.length = 0;
    const hit = document.elementFromPoint(opts.pointer.x, opts.pointer.y);
    const el = hit ? hit.closest('[data-price]') : null;
    pointer = { x: opts.pointer.x, y: opts.pointer.y, el, top: el ? el.getBoundingClientRect().top : NaN };
    const rows = document.querySelector('[data-testid="ladder"] .rows');
    observer = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') ui.textChanges++;
        for (const n of r.addedNodes) if (n instanceof Element && n.matches('[data-price]')) ui.rowsAdded++;
        for (const n of r.removedNodes) if (n instanceof Element && n.matches('[data-price]')) ui.rowsRemoved++;
      }
    });
    if (rows) observer.observe(rows, { childList: true, subtree: true, characterData: true });
    requestAnimationFrame(loop);
    const feed = opts.feed;
    if (!feed) return;
    // A book like main's view: 50 levels a side around a mid that wanders within ±3 ticks of 50¢,
    // new objects every time (as after IPC), sizes changing at random, a few own sizes.
    let seed = feed.seed >>> 0;
    const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let seq = 1_000_000;
    let mid = 500_000;
    const deliver = window.__harnessDeliver;
    const one = () => {
      mid = Math.max(497_000, Math.min(503_000, mid + (rnd() < 0.5 ? -1000 : 1000) * (rnd() < 0.3 ? 1 : 0)));
      const level = (price) => ({
        price: String(price),
        size: String(Math.floor(1 + rnd() * 400) * 100_000),
        orderCount: 1 + Math.floor(rnd() * 4),
        ownSize: rnd() < 0.05 ? '1000000' : '0',
      });
      const bids = Array.from({ length: 50 }, (_, i) => level(mid - 1000 - i * 1000));
      const asks = Array.from({ length: 50 }, (_, i) => level(mid + 1000 + i * 1000));
      deliver('book', {
        subscriptionId: feed.subscriptionId,
        book: {
          assetId: feed.assetId,
          epoch: feed.epoch,
          seqId: String(++seq),
          bids,
          asks,
          last: { price: String(mid), at: Date.now(), side: rnd() < 0.5 ? 'buy' : 'sell' },
          health: { state: 'live', reason: null, resyncs: 0, lastUpdateAt: Date.now() },
        },
      });
      ui.delivered++;
    };
    // One event per task, as IPC messages arrive; catch up if a timer fired late.
    const startedAt = performance.now();
    feeder = setInterval(() => {
      const due = Math.floor(((performance.now() - startedAt) * feed.rate) / 1000) - ui.delivered;
      if (due > 0) one();
      if (due > 1) setTimeout(one, 0);
    }, 1000 / feed.rate);
  };

  ui.stop = () => {
    if (feeder) clearInterval(feeder);
    feeder = null;
    if (observer) observer.disconnect();
    const out = {
      frames: rec ? rec.frames : [],
      updates: rec ? rec.updates : [],
      longTasks: [...longTasks],
      start: ui.t0,
      end: performance.now(),
      rowsAdded: ui.rowsAdded,
      rowsRemoved: ui.rowsRemoved,
      textChanges: ui.textChanges,
      pointerChecks: ui.pointerChecks,
      pointerMoves: ui.pointerMoves,
      delivered: ui.delivered,
    };
    rec = null;
    pendingUpdates.length = 0;
    return out;
  };
})();
