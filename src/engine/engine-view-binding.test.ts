import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decisionSettlement, VIEW_CHANGED } from './decision-settlement.ts';
import { decisionView } from './decision-view.ts';
import type { DecidedBy, McpToolSource, OwnerDevice, PausePoint } from './records/index.ts';
import { harness, pending, say, tab } from './testing/harness.ts';
import { makePausePoint } from './testing/make-records.ts';
import { MemoryClaimServer, MemoryDevices } from './testing/memory-devices.ts';
import type { ToolDefinition } from './tool-definition.ts';
import { ToolRegistry } from './tool-registry.ts';
import { viewHash } from './view-hash.ts';

const shown = (pause: PausePoint, edit?: unknown, toolChanged = false) => viewHash(decisionView({ pause, edit, toolChanged }));

const input = z.object({ amount: z.number(), to: z.string() });
const SOURCE: McpToolSource = { serverId: 's1', serverUrl: 'https://pay.example.com/mcp', serverName: 'Pay', toolName: 'pay', definitionHash: 'h1' };
/** An MCP server's tool, as the hub gives it to the engine: its server, its definition's hash, and whether it differs from its pin. */
function pay(runs: unknown[], mcp: McpToolSource = SOURCE, definitionChanged = false): ToolDefinition<typeof input> {
  return {
    name: 'pay',
    description: 'Pays someone.',
    input,
    gate: ({ amount, to }) => ({ title: `Pay ${amount} to ${to}?`, description: 'Pays.' }),
    mcp,
    definitionChanged,
    async execute(args) {
      runs.push(args);
      return 'paid';
    },
  };
}

describe('point 1: a decision binds to the view it was made on (view_hash)', () => {
  it('edited since: an approval carrying the hash of the unedited view but an edit is refused, and nothing runs', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Done.' }]);
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    const refused = await h.engine.decide(card!.id, { type: 'approve', editedPayload: { amount: 5000, to: 'eve' }, viewHash: shown(card!) }, tab('tab-A'));
    expect(refused).toEqual({ outcome: 'changed' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'pending' });

    // The edit, approved on the view that shows it, runs; the card records that view's hash.
    const edit = { amount: 450, to: 'bob' };
    expect(await h.engine.decide(card!.id, { type: 'approve', editedPayload: edit, viewHash: shown(card!, edit) }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([edit]);
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'resolved', editedPayload: edit, viewHash: shown(card!, edit) });
  });

  it('tool changed since: a decision on the view from before an MCP tool changed is refused; one on the view that says so stands', async () => {
    const runs: unknown[] = [];
    let tools: readonly ToolDefinition[] = [pay(runs)];
    const h = harness([{ calls: [{ name: 'pay', args: { amount: 9000, to: 'eve' } }] }, { text: 'Paid.' }], { tools: [], dynamicTools: () => tools });
    const id = await say(h, null, 'pay eve');
    const [card] = await pending(h, id);
    const before = shown(card!);
    // The server lists the tool changed: the card's view now warns, so the old one no longer binds.
    tools = [pay(runs, { ...SOURCE, definitionHash: 'h2' }, true)];
    expect(await h.engine.decide(card!.id, { type: 'approve', viewHash: before }, tab('tab-A'))).toEqual({ outcome: 'changed' });
    expect(await h.engine.decide(card!.id, { type: 'decline', viewHash: before }, tab('tab-A'))).toEqual({ outcome: 'changed' });
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'pending' });
    expect(runs).toEqual([]);
    expect(await h.engine.decide(card!.id, { type: 'decline', viewHash: shown(card!, undefined, true) }, tab('tab-A'))).toEqual({ outcome: 'decided' });
  });

  it('a warning added since: the settlement refuses the decision, typed, and writes nothing', () => {
    const card = makePausePoint({ risk: 'changes' });
    const ctx = { clock: { now: () => 0, sleep: () => Promise.resolve() }, ids: { uuid: () => 'u' }, tools: new ToolRegistry([]), owner: 'tab-A' };
    const by: DecidedBy = { tabId: 'tab-A', deviceId: 'd', label: 'here' };
    const hash = shown(card);
    const now = { ...card, dryRuns: [{ id: 'r', effect: 'deny' as const, text: 'deny send_invoice' }] };
    expect(decisionSettlement(ctx, now, { type: 'approve', viewHash: hash }, by, 0)).toEqual({ commit: false, reason: VIEW_CHANGED, code: 'view_changed' });
    expect(decisionSettlement(ctx, card, { type: 'approve', viewHash: hash }, by, 0)).toMatchObject({ commit: true, pausePoint: { viewHash: hash } });
  });

  it('another device’s decision with a stale hash is refused by the owner, which applies its own decision instead', async () => {
    const laptop: OwnerDevice = { id: 'laptop', name: 'Laptop' };
    const phone: DecidedBy = { tabId: 'tab-9', deviceId: 'phone', label: 'Phone', via: 'sync' };
    const server = new MemoryClaimServer();
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Done.' }], { devices: new MemoryDevices(server, laptop) });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    // The phone approved an edit it never showed (or a view since changed): its claim won on the server.
    const stale = { type: 'approve' as const, editedPayload: { amount: 5000, to: 'eve' }, viewHash: shown(card!) };
    server.claims.set(card!.id, { decision: stale, decidedBy: phone });
    expect(await h.engine.applyClaimed(card!.id, stale, phone)).toEqual({ outcome: 'changed' });
    expect(h.executions).toEqual([]);
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'pending' });
    // The owner's own press: the void claim is not applied, the owner's decision on its own view is.
    const own = await h.engine.decide(card!.id, { type: 'decline', viewHash: shown(card!) }, { tabId: 'tab-A', deviceId: 'laptop', label: 'Laptop' });
    expect(own).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'resolved', resolution: 'decline', decidedBy: { deviceId: 'laptop' } });
  });

  it('Approve all: each card is bound to the view the dialog showed of it; a stale one is refused, the others decided', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }, { name: 'transfer', args: { amount: 700, to: 'eve' } }] }, { text: 'Done.' }]);
    const id = await say(h, null, 'pay both');
    const [first, second] = await pending(h, id);
    const stale = shown({ ...second!, payload: { amount: 7, to: 'eve' } });
    const result = await h.engine.decideBatch([first!.id, second!.id], { type: 'approve' }, tab('tab-A'), [shown(first!), stale]);
    expect(result.cards.map((card) => card.result.outcome)).toEqual(['decided', 'changed']);
    expect(await h.storage.getPausePoint(second!.id)).toMatchObject({ status: 'pending' });
  });

  it('a device checks its own view before it claims: a claim cannot be taken back', async () => {
    const server = new MemoryClaimServer();
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Done.' }], { devices: new MemoryDevices(server, { id: 'laptop', name: 'Laptop' }) });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    const result = await h.engine.decide(card!.id, { type: 'approve', editedPayload: { amount: 1, to: 'bob' }, viewHash: shown(card!) }, tab('tab-A'));
    expect(result).toEqual({ outcome: 'changed' });
    expect(server.claims.size).toBe(0);
  });
});
