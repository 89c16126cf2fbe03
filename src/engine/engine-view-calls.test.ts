import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ViewCallRequest } from './call-from-view.ts';
import { decisionView } from './decision-view.ts';
import type { ToolAudience, ToolContext, ToolDefinition } from './tool-definition.ts';
import type { ApprovalRuleDraft } from './records/index.ts';
import { realSleeps } from './testing/fake-clock.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';
import { MemoryRules } from './testing/memory-rules.ts';

/**
 * MCP Apps (issue 36, point 3): a `tools/call` from an app's view goes through
 * the engine as the model's calls do — rules, the risk label, a card, the
 * ledger's at-most-once, the audit record — and its card and record say the
 * view proposed it. The model is neither sent its result nor asked to answer.
 */

const SERVER = 's1';
const source = (toolName: string, serverId = SERVER) => ({ serverId, serverUrl: `https://${serverId}.example/mcp`, serverName: `Server ${serverId}`, toolName, definitionHash: `hash-${toolName}` });

interface Ran {
  tool: string;
  args: unknown;
}

/** An MCP-like tool: `ask` gives it a gate that always asks (an untrusted server's tool). */
function mcpTool(name: string, ran: Ran[], { ask = false, visibility, serverId = SERVER }: { ask?: boolean; visibility?: ToolAudience[]; serverId?: string } = {}): ToolDefinition {
  const input = z.object({ amount: z.number().optional() }).loose();
  return {
    name: `${serverId}_${name}`,
    description: `${name} of ${serverId}`,
    input,
    gate: () => (ask ? { title: `Run ${name}?`, description: 'An MCP tool.' } : null),
    risk: () => 'changes',
    mcp: source(name, serverId),
    ...(visibility ? { visibility } : {}),
    async execute(args, context: ToolContext) {
      ran.push({ tool: name, args });
      context.keepResultForView?.(JSON.stringify({ content: [{ type: 'text', text: `${name} done` }], structuredContent: { name } }));
      return `${name} done`;
    },
  } satisfies ToolDefinition<typeof input>;
}

function setUp(rules = new MemoryRules()) {
  const ran: Ran[] = [];
  const tools = [
    mcpTool('show-time', ran),
    mcpTool('pay', ran, { ask: true }),
    mcpTool('refresh', ran, { ask: true, visibility: ['app'] }),
    mcpTool('secret', ran, { visibility: ['model'] }),
    mcpTool('elsewhere', ran, { serverId: 's2' }),
  ];
  // The model calls the tool whose view is shown; then it is done.
  const h = harness([{ calls: [{ name: 's1_show-time', args: {}, id: 'call_view' }] }, { text: 'Here is the time.' }], { tools, rules, clock: realSleeps() });
  return { h, ran, rules };
}

async function withView(rules?: MemoryRules) {
  const set = setUp(rules);
  const id = await say(set.h, null, 'what time is it?');
  set.ran.length = 0;
  const ask = (name: string, args: Record<string, unknown> = {}, over: Partial<ViewCallRequest> = {}) =>
    set.h.engine.callFromView({ conversationId: id, viewCallId: 'call_view', serverId: SERVER, name, arguments: args, ...over });
  return { ...set, id, ask };
}

describe('a view’s tool call', () => {
  it('raises a card that says the view asked, and runs once, only after Approve', async () => {
    const { h, ran, id, ask } = await withView();
    const requests = h.model.requests.length;
    const answer = ask('pay', { amount: 30 });

    await expect.poll(async () => (await pending(h, id)).length).toBe(1);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'gate', toolName: 's1_pay', payload: { amount: 30 }, risk: 'changes', fromView: { viewCallId: 'call_view' }, mcp: { serverId: SERVER, toolName: 'pay' } });
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    const view = decisionView({ pause: card! });
    expect(view.lines).toContainEqual({ kind: 'warning', warning: 'from_view', text: 'Asked by the interactive view of Server s1, not by the model.' });
    expect(ran).toEqual([]);

    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await expect(answer).resolves.toEqual({ outcome: 'ran', result: JSON.stringify({ content: [{ type: 'text', text: 'pay done' }], structuredContent: { name: 'pay' } }), text: 'pay done', isError: false });
    await h.engine.whenIdle();
    await h.engine.run(id);
    expect(ran).toEqual([{ tool: 'pay', args: { amount: 30 } }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });

    // The call is a row of its own, marked; the ledger has it once; the model was neither asked nor told.
    const rows = (await h.storage.listMessages(id)).filter((m) => m.fromView);
    expect(rows.map((m) => m.role)).toEqual(['assistant', 'user', 'tool']);
    const callId = rows[0]?.role === 'assistant' ? rows[0].toolCalls[0]!.id : '';
    expect(await h.storage.getLedgerEntry(`${id}:${callId}`)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(h.model.requests.length).toBe(requests);
  });

  it('is declined on Decline, and the view is told why', async () => {
    const { h, ran, id, ask } = await withView();
    const answer = ask('pay', { amount: 30 });
    await expect.poll(async () => (await pending(h, id)).length).toBe(1);
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'decline', reason: 'not now' }, tab('tab-A'));
    const declined = await answer;
    expect(declined.outcome).toBe('declined');
    expect(declined.outcome === 'declined' && declined.reason).toContain('not now');
    expect(ran).toEqual([]);
  });

  it('runs without a card when an allow rule lets it through, and the rule’s record says the view proposed it', async () => {
    const rules = new MemoryRules();
    const { h, ran, id, ask } = await withView(rules);
    const allow: ApprovalRuleDraft = { effect: 'allow', tool: 's1_pay', scope: { kind: 'everywhere' }, source: 'settings' };
    await h.engine.addRule(allow);
    const answer = await ask('pay', { amount: 5 });
    expect(answer).toMatchObject({ outcome: 'ran', isError: false });
    expect(ran).toEqual([{ tool: 'pay', args: { amount: 5 } }]);
    const [decided] = (await h.storage.listPausePoints(id)).filter((p) => p.origin === 'rule');
    expect(decided).toMatchObject({ status: 'resolved', resolution: 'approve', fromView: { viewCallId: 'call_view' }, rule: { effect: 'allow' } });
    expect(await pending(h, id)).toEqual([]);
  });

  it('runs a second call of the same view on its own ledger entry, never the first again', async () => {
    const rules = new MemoryRules();
    const { h, ran, ask } = await withView(rules);
    await h.engine.addRule({ effect: 'allow', tool: 's1_pay', scope: { kind: 'everywhere' }, source: 'settings' });
    await ask('pay', { amount: 1 });
    await ask('pay', { amount: 2 });
    expect(ran).toEqual([
      { tool: 'pay', args: { amount: 1 } },
      { tool: 'pay', args: { amount: 2 } },
    ]);
  });

  it('refuses a model-only tool, another server’s tool, an unknown call row and an unknown tool; nothing runs or asks', async () => {
    const { h, ran, id, ask } = await withView();
    expect(await ask('secret')).toEqual({ outcome: 'refused', reason: 'The tool "secret" may be called by the model only, not by a view.' });
    expect(await ask('elsewhere')).toEqual({ outcome: 'refused', reason: 'The server offers no tool named "elsewhere".' });
    expect(await ask('elsewhere', {}, { serverId: 's2' })).toEqual({ outcome: 'refused', reason: 'A view may only call tools of its own server.' });
    expect(await ask('pay', {}, { viewCallId: 'call_nope' })).toEqual({ outcome: 'refused', reason: 'The call whose view asked is not in this conversation.' });
    expect(ran).toEqual([]);
    expect(await pending(h, id)).toEqual([]);
  });

  it('offers an app-only tool to the view and never to the model', async () => {
    const { h, ran, id, ask } = await withView();
    // Not listed to the model...
    const offered = h.model.requests[0]!.tools.map((t) => t.function.name);
    expect(offered).toContain('s1_pay');
    expect(offered).toContain('s1_secret');
    expect(offered).not.toContain('s1_refresh');
    // ...but the view may call it, through a card like any call.
    const answer = ask('refresh');
    await expect.poll(async () => (await pending(h, id)).length).toBe(1);
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await expect(answer).resolves.toMatchObject({ outcome: 'ran' });
    expect(ran).toEqual([{ tool: 'refresh', args: {} }]);
  });

  it('refuses an app-only tool the model calls by name, as a tool that does not exist', async () => {
    const ran: Ran[] = [];
    const tools = [mcpTool('refresh', ran, { visibility: ['app'] })];
    const h = harness([{ calls: [{ name: 's1_refresh', args: {}, id: 'call_guess' }] }, { text: 'Could not.' }], { tools });
    const id = await say(h, null, 'refresh');
    expect(ran).toEqual([]);
    const result = (await h.storage.listMessages(id)).find((m) => m.role === 'tool');
    expect(result).toMatchObject({ outcome: 'invalid', content: expect.stringContaining('there is no tool named "s1_refresh"') });
  });

  it('keeps the card when the view goes away, and records the outcome like any call', async () => {
    const { h, ran, id, ask } = await withView();
    const gone = new AbortController();
    const answer = h.engine.callFromView({ conversationId: id, viewCallId: 'call_view', serverId: SERVER, name: 'pay', arguments: { amount: 9 } }, gone.signal);
    await expect.poll(async () => (await pending(h, id)).length).toBe(1);
    gone.abort(new Error('the view was closed'));
    await expect(answer).rejects.toThrow('the view was closed');
    void ask;
    // Another tab decides it later: it runs once, recorded as any call.
    const [card] = await pending(h, id);
    const other = h.openTab('tab-B');
    await other.decide(card!.id, { type: 'approve' }, tab('tab-B'));
    await other.whenIdle();
    expect(ran).toEqual([{ tool: 'pay', args: { amount: 9 } }]);
    const result = (await h.storage.listMessages(id)).find((m) => m.role === 'tool' && m.fromView);
    expect(result).toMatchObject({ outcome: 'done', content: 'pay done' });
  });
});
