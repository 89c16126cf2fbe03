import type { CallToolResult } from '@modelcontextprotocol/client';
import { OutcomeUnknown } from '../engine/errors.ts';
import { McpConnectError } from './connect-failure.ts';
import { CallDropped, SessionLost } from './mcp-session.ts';
import type { ServerLinks } from './server-links.ts';

/** How many times a task's end is asked for across dropped connections before its outcome is called unknown (with the hub's default delays, about 48 s). */
export const TASK_READ_ATTEMPTS = 6;

/** The session with a task's server offers no tasks (it settled on a 2025 revision). */
class NoTasks extends Error {
  override readonly name = 'NoTasks';
}

/** A request that failed on the way (the connection dropped, the server restarted): what it asked may be asked again only if that is harmless. */
export function lostConnection(error: unknown): boolean {
  return error instanceof CallDropped || error instanceof SessionLost;
}

/**
 * A task's end, read back with `tasks/get` through this tab's session with
 * its server (connecting if need be). A connection that drops, or a server
 * that cannot be reached, is tried again after the links' reconnection
 * delays, up to `TASK_READ_ATTEMPTS` times: the task goes on on the server
 * meanwhile, and reading it is harmless to repeat (its `tools/call` is never
 * sent again). Only then, or when the server no longer knows the task
 * (task-wire.ts), is its outcome unknown. `dropped`: the failure that brought
 * the caller here, which counts as the first attempt.
 */
export async function readTaskBack(links: ServerLinks, id: string, label: string, taskId: string, signal: AbortSignal, dropped?: unknown): Promise<CallToolResult> {
  let failure = dropped;
  for (let attempt = dropped === undefined ? 1 : 2; ; attempt++) {
    if (failure !== undefined) await delay(links.retryDelay(attempt - 1), signal);
    try {
      const tasks = (await links.session(id)).tasks;
      // A connection made while the server came back up may have settled on a 2025 revision (no tasks): connect again.
      if (!tasks) throw new NoTasks(`${label} no longer offers tasks, so its task ${taskId} cannot be read back.`);
      return await tasks.follow(taskId, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // Signing in (or a refusal) is the user's to do, not a matter of asking again.
      if (error instanceof McpConnectError && error.kind !== 'failed') {
        throw new OutcomeUnknown(`${label} could not be reached to read back its task ${taskId}: ${error.message}`, { cause: error });
      }
      if (!(lostConnection(error) || error instanceof McpConnectError || error instanceof NoTasks)) throw error;
      failure = error;
      // A session its server forgot, or one without tasks: the next attempt opens a new one.
      if (error instanceof SessionLost || error instanceof NoTasks) await dropSession(links, id);
    }
    if (attempt >= TASK_READ_ATTEMPTS) {
      if (failure instanceof NoTasks) throw new OutcomeUnknown(failure.message, { cause: failure });
      const why = failure instanceof Error ? failure.message : String(failure);
      throw new OutcomeUnknown(`${label} could not be reached to read back its task ${taskId} (${TASK_READ_ATTEMPTS} tries): ${why}`, { cause: failure });
    }
  }
}

/** Forgets this tab's session with the server (closing it), so the next request connects anew. */
async function dropSession(links: ServerLinks, id: string): Promise<void> {
  const link = links.link(id);
  const stale = link.session;
  link.session = null;
  await stale?.then((session) => session.close()).catch(() => undefined);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal.removeEventListener('abort', stop), resolve()), ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
