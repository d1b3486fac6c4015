// Stand-in for the preload's `window.terminal`: the same frozen shape, canned answers.
(() => {
  const terminal = Object.freeze({
    invoke: (method) =>
      Promise.resolve(
        method === 'app.info'
          ? { ok: true, value: { version: '0.1.0', platform: 'linux' } }
          : { ok: false, error: { code: 'bridge.unknown_method', message: 'No such method.' } },
      ),
    on: (event, handler) => {
      const timer =
        event === 'notice' ? setTimeout(() => handler({ level: 'info', message: 'Devnet not started' }), 0) : undefined;
      return () => clearTimeout(timer);
    },
  });
  Object.defineProperty(window, 'terminal', { value: terminal });
})();
