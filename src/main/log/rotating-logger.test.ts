import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './rotating-logger';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'logger-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes redacted JSON lines with time, level, event and child fields', () => {
    const dir = tempDir();
    const log = createLogger({ dir, now: () => 0 });
    const wallet = Wallet.createRandom();
    log
      .child({ scope: 'exchange' })
      .info('http.request', { method: 'POST', path: '/orders', ms: 12, privateKey: wallet.privateKey });
    log.warn('ws.status', { status: 'reconnecting', note: wallet.mnemonic!.phrase });
    log.debug('dropped'); // below the default level
    const got = lines(log.filePath);
    expect(got).toEqual([
      {
        ts: '1970-01-01T00:00:00.000Z',
        level: 'info',
        event: 'http.request',
        scope: 'exchange',
        method: 'POST',
        path: '/orders',
        ms: 12,
        privateKey: '[REDACTED]',
      },
      { ts: '1970-01-01T00:00:00.000Z', level: 'warn', event: 'ws.status', status: 'reconnecting', note: '[REDACTED]' },
    ]);
    const raw = readFileSync(log.filePath, 'utf8');
    expect(raw).not.toContain(wallet.privateKey.slice(2));
    expect(raw).not.toContain(wallet.mnemonic!.phrase);
  });

  it('rotates by size and keeps N files, newest first', () => {
    const dir = tempDir();
    const log = createLogger({ dir, fileName: 'app.log', maxBytes: 200, maxFiles: 3 });
    for (let i = 0; i < 40; i++) log.info('feed.event', { i, pad: 'x'.repeat(60) });
    expect(readdirSync(dir).sort()).toEqual(['app.log', 'app.log.1', 'app.log.2']);
    for (const f of readdirSync(dir)) {
      expect(readFileSync(join(dir, f)).length).toBeLessThanOrEqual(200);
    }
    const current = lines(join(dir, 'app.log')).map((l) => l['i'] as number);
    const older = lines(join(dir, 'app.log.1')).map((l) => l['i'] as number);
    const oldest = lines(join(dir, 'app.log.2')).map((l) => l['i'] as number);
    expect(current.at(-1)).toBe(39);
    expect([...oldest, ...older, ...current]).toEqual(
      Array.from(
        { length: oldest.length + older.length + current.length },
        (_, k) => 40 - (oldest.length + older.length + current.length) + k,
      ),
    );
  });

  it('continues an existing file after a restart', () => {
    const dir = tempDir();
    createLogger({ dir }).info('one');
    createLogger({ dir }).info('two');
    expect(lines(join(dir, 'main.log')).map((l) => l['event'])).toEqual(['one', 'two']);
  });
});
