import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPouchdbServer } from './pouchdb-server.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

describe('startPouchdbServer', () => {
  it('serves on the port asked, with an admin, and a database with members refuses anonymous requests', async () => {
    const port = await freePort();
    const server = await startPouchdbServer({ port });
    try {
      await server.createDatabase('members-only', { username: 'bob', password: 'pw' });
      await server.createDatabase('open');
      const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

      const anonymous = await fetch(`${server.url}/members-only`);
      const member = await fetch(`${server.url}/members-only`, { headers: basic('bob', 'pw') });
      const admin = await fetch(`${server.url}/_config`, { headers: basic(server.admin.username, server.admin.password) });
      const anonymousConfig = await fetch(`${server.url}/_config`);

      expect(server).toMatchObject({ url: `http://127.0.0.1:${port}`, port });
      expect([anonymous.status, member.status, admin.status, anonymousConfig.status]).toEqual([401, 200, 200, 401]);
      expect((await fetch(`${server.url}/open`)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('stops on close: the port refuses, and its folder is gone', async () => {
    const server = await startPouchdbServer();
    const wroteItsLog = existsSync(`${server.folder}/log.txt`);

    await server.close();
    await server.close();

    await expect(fetch(`${server.url}/`)).rejects.toThrow(TypeError);
    expect(wroteItsLog).toBe(true);
    expect(existsSync(server.folder)).toBe(false);
  }, 30_000);
});
