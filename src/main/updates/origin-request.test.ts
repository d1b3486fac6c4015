import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBounded } from './fetch-bounded';
import { UpdateOrigin } from './update-origin';
import { UpdateProblem } from './update-problem';

// A loopback server whose paths redirect: within the update folder, out of it, and in a loop.
let server: Server;
let origin: UpdateOrigin;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/updates/moved.json') res.writeHead(302, { location: '/updates/latest.json' }).end();
    else if (req.url === '/updates/latest.json') res.writeHead(200).end('{"ok":true}');
    else if (req.url === '/updates/outside.json') res.writeHead(302, { location: '/elsewhere/latest.json' }).end();
    else if (req.url?.startsWith('/updates/loop')) res.writeHead(302, { location: `${req.url}x` }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = UpdateOrigin.parse(`http://127.0.0.1:${port}/updates/`)!;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const tooLarge = () => new UpdateProblem('update.manifest_too_large', 'too large');
const read = (name: string) => getBounded(origin, { url: origin.file(name), maxBytes: 1024, tooLarge });

describe('requests to the update address', () => {
  it('follow a redirect that stays within the update folder', async () => {
    expect((await read('moved.json'))?.toString()).toBe('{"ok":true}');
  });

  it('refuse a redirect out of the update folder without requesting it', async () => {
    hits.length = 0;
    await expect(read('outside.json')).rejects.toMatchObject({ code: 'update.redirect' });
    expect(hits).toEqual(['/updates/outside.json']);
  });

  it('give up after three redirects, with a sentence', async () => {
    hits.length = 0;
    const refusal = read('loop').catch((error: unknown) => error);
    await expect(refusal).resolves.toMatchObject({ code: 'update.unreachable' });
    expect(hits).toHaveLength(4);
  });

  it('read a missing file as null', async () => {
    expect(await read('absent.json')).toBeNull();
  });
});
