// Injected before any page script (by the browser, outside the page's CSP): records every
// CSP violation so the test can assert there were none.
(() => {
  const seen = [];
  Object.defineProperty(window, '__cspViolations', { value: seen });
  document.addEventListener('securitypolicyviolation', (event) => {
    seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}`);
  });
})();
