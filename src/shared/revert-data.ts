/**
 * Finds EVM revert data anywhere in an ethers / JSON-RPC error chain (providers nest it under
 * `data`, `error`, `info` or `cause` depending on the transport), so a custom error can be decoded.
 */
export function findRevertData(err: unknown, depth = 0): string | undefined {
  if (depth > 6 || typeof err !== 'object' || err === null) return undefined;
  const e = err as Record<string, unknown>;
  if (typeof e['data'] === 'string' && /^0x[0-9a-fA-F]{8}/.test(e['data'])) return e['data'];
  for (const key of ['data', 'error', 'info', 'cause']) {
    const found = findRevertData(e[key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
