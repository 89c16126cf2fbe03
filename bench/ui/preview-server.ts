import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Builds the app into `outDir` with the project's own vite config. A private
 * folder rather than dist/: the end-to-end suite rebuilds dist/ (with its probe
 * page) whenever it runs, and must not swap files under a running bench.
 */
export async function buildApp(outDir: string): Promise<void> {
  const child = spawn('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await exited(child);
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
}

/** A build to serve, and how to be rid of it once served. */
export interface AppBuild {
  dir: string;
  /** Deletes a build made here; leaves a given one alone. */
  remove(): Promise<void>;
}

/**
 * `prebuilt` as it is (an A/B of two builds, or the end-to-end tests' build), or a fresh build in a temporary
 * folder named after `name`. `onBuild` is told the folder before the build starts (for a bench's log). A build
 * that fails leaves no folder behind.
 */
export async function appBuild(prebuilt: string | undefined, name: string, onBuild?: (dir: string) => void): Promise<AppBuild> {
  if (prebuilt) return { dir: prebuilt, remove: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), `pausepoint-${name}-`));
  const remove = () => rm(dir, { recursive: true, force: true });
  onBuild?.(dir);
  try {
    await buildApp(dir);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}

export interface PreviewServer {
  origin: string;
  stop(): Promise<void>;
}

/** `vite preview` of `outDir` on `port` (a free loopback port unless given); `stop()` ends the process group this started (npx and vite). */
export async function startPreview(outDir: string, port?: number): Promise<PreviewServer> {
  port ??= await freePort();
  const child = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so stop() reaches vite behind npx.
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const gone = exited(child);
    process.kill(-child.pid, 'SIGTERM');
    await gone;
  };
  try {
    await waitForHttp(origin, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHttp(origin: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}: ${stderr()}`);
    try {
      const response = await fetch(origin);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vite preview did not answer on ${origin} within 30 s: ${stderr()}`);
}
