import { describe, expect, it } from 'vitest';
import { OutcomeUnknown } from './errors.ts';
import type { ToolContext, ToolDefinition } from './tool-definition.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, state, type Harness } from './testing/harness.ts';
import { scriptedTool } from './testing/test-tools.ts';

/**
 * Issue 34 part 3: a call its server runs as a task (MCP's Tasks extension)
 * has the task's id on its ledger entry before it goes on, and a run that dies
 * while the task runs is finished by reading the task's outcome back, not by
 * asking "Outcome unknown" and never by running it again.
 */
const post = { calls: [{ name: 'post', args: { text: 'hello' }, id: 'call_post' }] };

/** A tool whose server takes every call as task `task-<run>`; `follow` reads a task back. */
function taskTool(follow: (taskId: string, context: ToolContext) => Promise<string>, onRecorded: (context: ToolContext) => Promise<string> = async () => 'posted') {
  const followed: string[] = [];
  const tool = scriptedTool('post', async (run, _args, context) => {
    await context.recordTask?.({ id: `task-${run}` });
    return onRecorded(context);
  });
  const withTask: ToolDefinition & { readonly runs: { text: string }[]; followed: string[] } = Object.assign(tool, {
    followed,
    followTask: (taskId: string, _args: unknown, context: ToolContext) => {
      followed.push(taskId);
      return follow(taskId, context);
    },
  });
  return withTask;
}

/** Tab A's storage dies as it stores the call's result: its task is on the ledger, its result is not. */
async function dieBeforeTheResult(h: Harness) {
  const tabAStorage = crashableStorage(h.storage, (method) => method === 'finishExecution');
  const tabA = h.openTab('tab-A', { storage: tabAStorage });
  const id = await tabA.createConversation();
  await tabA.send(id, 'post it').catch(() => undefined);
  await tabA.whenIdle();
  expect(tabAStorage.dead).toBe(true);
  return id;
}

describe('tasks on the ledger', () => {
  it('stores the task id on the call’s ledger entry before the tool goes on', async () => {
    let seen: unknown;
    const box: { h?: Harness } = {};
    const tool = taskTool(
      async () => 'unused',
      async (context) => {
        seen = await box.h!.storage.getLedgerEntry(`${context.conversationId}:call_post`);
        return 'posted';
      },
    );
    const h = (box.h = harness([post, { text: 'Posted.' }], { tools: [tool] }));
    const { conversationId: id } = await h.engine.send(null, 'post it');
    await h.engine.whenIdle();
    expect(seen).toMatchObject({ status: 'started', task: { id: 'task-1' } });
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'succeeded', task: { id: 'task-1' }, result: 'posted' });
  });

  it('after the tab died mid-task, the recovering tab reads the outcome back: no second run, no Outcome unknown', async () => {
    const tool = taskTool(async (taskId) => `posted (${taskId}, read back)`);
    const h = harness([post, { text: 'Posted.' }], { tools: [tool] });
    const id = await dieBeforeTheResult(h);
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'started', task: { id: 'task-1' } });

    const tabB = h.openTab('tab-B', { tools: [tool] });
    expect(await tabB.recover(id)).toBe(true);
    await tabB.whenIdle();

    expect(tool.runs).toHaveLength(1);
    expect(tool.followed).toEqual(['task-1']);
    expect(await pending(h, id)).toEqual([]);
    const results = (await h.storage.listMessages(id)).filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.content, m.outcome])).toEqual([['posted (task-1, read back)', 'done']]);
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The model got the task's result and answered.
    expect(h.model.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('posted (task-1, read back)') });
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('a server that forgot the task: the outcome is unknown and the user is asked, still without running again', async () => {
    const tool = taskTool(async () => Promise.reject(new OutcomeUnknown('The server no longer knows task task-1.')));
    const h = harness([post, { text: 'Posted.' }], { tools: [tool] });
    const id = await dieBeforeTheResult(h);
    const tabB = h.openTab('tab-B', { tools: [tool] });
    await tabB.recover(id);
    await tabB.whenIdle();

    expect(tool.runs).toHaveLength(1);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'unknown_outcome' });
    expect(card!.description).toContain('The server no longer knows task task-1.');
  });

  it('Stop while a task runs leaves it to be read back on the next run, not unknown', async () => {
    const tool = taskTool(
      async (taskId) => `posted (${taskId}, read back)`,
      (context) => new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true })),
    );
    const h = harness([post, { text: 'Posted.' }], { tools: [tool] });
    const { conversationId: id } = await h.engine.send(null, 'post it');
    await new Promise((resolve) => setTimeout(resolve, 10));
    h.engine.stop(id);
    await h.engine.whenIdle();
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'started', task: { id: 'task-1' } });

    await h.engine.retry(id);
    await h.engine.whenIdle();
    expect(tool.runs).toHaveLength(1);
    expect(tool.followed).toEqual(['task-1']);
    expect(await pending(h, id)).toEqual([]);
  });
});
