import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real CouchDB-protocol server for tests: pouchdb-server 4.2.0 (a devDependency,
 * so `npm ci` brings it) with in-memory databases, on loopback, in a process of
 * its own. It behaves as a CouchDB 1.x single node: 409 on a second create of an
 * id, longpoll _changes, `_users` and `_security` with Basic auth. See
 * ../fake-couch for what it cannot do (202, stored conflicts, dropped feeds).
 *
 * Start-up measured on this 2-core machine: about 0.8 s warm, 1.6 s on a cold
 * disk cache (node loading express-pouchdb). Start one per test file
 * (beforeAll), not per test, and give each test a database of its own.
 *
 * ```ts
 * const server = await startPouchdbServer();
 * await server.createDatabase('pausepoint', { username: 'alice', password: 'pw' });
 * new CouchClient({ serverUrl: server.url, database: 'pausepoint', username: 'alice', password: 'pw' });
 * await server.close();
 * ```
 */
export interface PouchdbServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The server admin, created at start: anonymous requests are no longer admin once one exists. */
  readonly admin: { username: string; password: string };
  /** Its working folder (config.json, log.txt: read the log when a test puzzles you); removed on close. */
  readonly folder: string;
  /**
   * Creates the database as the admin. With `members`, also the user (in
   * `_users`, updated if it exists) and the database's `_security` naming it
   * as the only member, so the database refuses anonymous requests (401).
   */
  createDatabase(name: string, members?: { username: string; password: string }): Promise<void>;
  /** Kills the server's process group and removes its folder; safe to call twice. */
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const BIN = join(dirname(require.resolve('pouchdb-server/package.json')), 'bin', 'pouchdb-server');
const READY_TIMEOUT_MS = 20_000;

export async function startPouchdbServer(options: { port?: number } = {}): Promise<PouchdbServer> {
  const port = options.port ?? (await freePort());
  // pouchdb-server writes config.json and log.txt into its working directory.
  const folder = await mkdtemp(join(tmpdir(), 'pausepoint-pouchdb-'));
  // detached: its own process group, so close() also ends anything it spawned.
  const child = spawn(process.execPath, [BIN, '--in-memory', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: folder,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its last words, for an error if it fails to start; it logs every request, so only the latest are kept.
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= stop(child, exited).then(() => rm(folder, { recursive: true, force: true }));
    return closed;
  };

  const url = `http://127.0.0.1:${port}`;
  const admin = { username: 'admin', password: randomBytes(12).toString('hex') };
  try {
    await waitUntilAnswering(url, child, output);
    await expectOk(await fetch(`${url}/_config/admins/${admin.username}`, { method: 'PUT', body: JSON.stringify(admin.password) }), 'create the admin');
  } catch (error) {
    await close();
    throw error;
  }

  const asAdmin = { Authorization: `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`, 'Content-Type': 'application/json' };
  return {
    url,
    port,
    admin,
    folder,
    async createDatabase(name, members) {
      await expectOk(await fetch(`${url}/${encodeURIComponent(name)}`, { method: 'PUT', headers: asAdmin }), `create database ${name}`);
      if (members === undefined) return;
      const userUrl = `${url}/_users/${encodeURIComponent(`org.couchdb.user:${members.username}`)}`;
      const existing = await fetch(userUrl, { headers: asAdmin });
      const rev = existing.ok ? ((await existing.json()) as { _rev: string })._rev : undefined;
      const user = { name: members.username, password: members.password, roles: [], type: 'user', ...(rev ? { _rev: rev } : {}) };
      await expectOk(await fetch(userUrl, { method: 'PUT', headers: asAdmin, body: JSON.stringify(user) }), `create user ${members.username}`);
      const security = { admins: { names: [], roles: [] }, members: { names: [members.username], roles: [] } };
      await expectOk(
        await fetch(`${url}/${encodeURIComponent(name)}/_security`, { method: 'PUT', headers: asAdmin, body: JSON.stringify(security) }),
        `set ${name}'s _security`,
      );
    },
    close,
  };
}

/** A port nobody listens on right now. Another process could take it before the server does; the server's exit then says so. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address !== null && typeof address === 'object' ? resolve(address.port) : reject(new Error('no TCP address'))));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastFailure: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`pouchdb-server exited before answering (${child.exitCode ?? child.signalCode}):\n${output.join('')}`);
    }
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch (notYet) {
      // Refused until it listens: try again shortly, and say why if it never does.
      lastFailure = notYet;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`pouchdb-server did not answer on ${url} within ${READY_TIMEOUT_MS} ms (${String(lastFailure)}):\n${output.join('')}`);
}

async function expectOk(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`pouchdb-server: could not ${what}: HTTP ${response.status} ${await response.text()}`);
  await response.body?.cancel();
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch (error) {
    // ESRCH: the group is already gone, which is what we wanted.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    return;
  }
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }, 2_000);
  await exited;
  clearTimeout(timer);
}
