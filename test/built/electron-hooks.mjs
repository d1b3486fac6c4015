// Module resolution hook for the boot driver: `electron`, imported by the built main bundle,
// resolves to the Electron API double (electron-double.mjs). Every other specifier resolves
// as it would under Electron's own Node, so a wrong external or a missing file still fails.
const DOUBLE = new URL('./electron-double.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: DOUBLE, shortCircuit: true };
  return nextResolve(specifier, context);
}
