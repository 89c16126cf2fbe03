import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';

/**
 * Starts a loopback test server script (`entry`, an .mjs beside the specs, or a package's entry) as its own Node
 * process on `port`, and resolves once `http://localhost:{port}{readyPath}` answers OK to `method` (GET unless
 * given): the MCP servers the specs run (mcp-words, mcp-modern, mcp-oauth, ext-apps' example) all start this way.
 * Rejects with the process's stderr if it exits first or does not listen in 15 s.
 */
export async function startLoopbackProcess(
  entry: string,
  port: number,
  readyPath: string,
  { method = 'GET', name = basename(entry, '.mjs') }: { method?: string; name?: string } = {},
): Promise<ChildProcess> {
  const child: ChildProcess = spawn(process.execPath, [entry], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`http://localhost:${port}${readyPath}`, { method }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Kills a process `startLoopbackProcess` started, and waits until it has exited (its port is free again). */
export async function stopLoopbackProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
