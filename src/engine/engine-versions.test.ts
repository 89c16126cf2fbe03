import { describe, expect, it } from 'vitest';
import { CallerError } from './errors.ts';
import type { Message, OwnerDevice } from './records/index.ts';
import { harness, pending, say, state, tab, type Harness } from './testing/harness.ts';
import { MemoryClaimServer, MemoryDevices } from './testing/memory-devices.ts';
import { modelError } from './testing/scripted-model.ts';
import { currentPath, versionsAt } from './versions/index.ts';

/** The same call id every time, as some endpoints send: the new version's call must still be a new call. */
const bigTransfer = { calls: [{ name: 'transfer', args: { amount: 500, to: 'Ada' }, id: 'call_same' }] };

async function shown(h: Harness, id: string): Promise<readonly Message[]> {
  const conversation = await h.storage.getConversation(id);
  return currentPath(await h.storage.listMessages(id), conversation?.versions);
}

const texts = (messages: readonly Message[]) => messages.filter((m) => m.role !== 'tool').map((m) => m.content);

async function approveAll(h: Harness, id: string): Promise<void> {
  for (const card of await pending(h, id)) await h.engine.decide(card.id, { type: 'approve' }, tab('tab-A'));
  await h.engine.whenIdle();
}

/** Nothing ran, was asked or was decided by a switch: the counts are as they were. */
async function snapshot(h: Harness, id: string) {
  return {
    requests: h.model.requests.length,
    executions: h.executions.length,
    cards: (await h.storage.listPausePoints(id)).map((p) => [p.id, p.status]),
    messages: (await h.storage.listMessages(id)).length,
  };
}

describe('versions in the engine', () => {
  it('Regenerate asks again from the same history; a call approved and run in version 1 is never run again, the new call passes its own gate', async () => {
    const h = harness([bigTransfer, { text: 'Sent 500 to Ada.' }, bigTransfer, { text: 'Sent again, as approved.' }]);
    const id = await say(h, null, 'pay Ada');
    const [first] = await pending(h, id);
    await approveAll(h, id);
    expect(h.executions).toHaveLength(1);
    const ledgerBefore = await h.storage.getLedgerEntry(`${id}:call_same`);
    expect(ledgerBefore).toMatchObject({ status: 'succeeded' });
    const askedFirst = h.model.requests[0]!.messages;

    await h.engine.regenerate(id);
    await h.engine.whenIdle();
    // The model was asked with the history version 1's first request had.
    expect(h.model.requests[2]!.messages).toEqual(askedFirst);
    const cards = await pending(h, id);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.id).not.toBe(first!.id);
    expect(cards[0]!.toolCallId).not.toBe('call_same');
    expect(h.executions).toHaveLength(1);
    expect(await h.storage.getLedgerEntry(`${id}:call_same`)).toEqual(ledgerBefore);
    expect(await h.storage.getPausePoint(first!.id)).toMatchObject({ status: 'resolved', resolution: 'approve' });

    await approveAll(h, id);
    expect(h.executions).toHaveLength(2);
    expect(await h.storage.getLedgerEntry(`${id}:call_same`)).toEqual(ledgerBefore);
    expect(texts(await shown(h, id))).toEqual(['pay Ada', '', expect.stringContaining('Approval'), 'Sent again, as approved.']);

    // Back and forth: each version shows what it had, and nothing runs, asks or decides again.
    const before = await snapshot(h, id);
    const path = await shown(h, id);
    const choice = versionsAt(path, (await h.storage.getConversation(id))?.versions).get(path[1]!.id);
    expect(choice).toMatchObject({ shown: 2, count: 2, previous: '' });
    await h.engine.switchVersion(id, choice!.previous!);
    await h.engine.whenIdle();
    expect(texts(await shown(h, id)).at(-1)).toBe('Sent 500 to Ada.');
    await h.engine.run(id);
    expect(await snapshot(h, id)).toEqual(before);
    const original = await shown(h, id);
    const again = versionsAt(original, (await h.storage.getConversation(id))?.versions).get(original[1]!.id);
    expect(again).toMatchObject({ shown: 1, count: 2 });
    await h.engine.switchVersion(id, again!.next!);
    await h.engine.run(id);
    expect(texts(await shown(h, id)).at(-1)).toBe('Sent again, as approved.');
    expect(await snapshot(h, id)).toEqual(before);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('Edit → Send: the model receives the edited text and only the new version; the earlier version is kept', async () => {
    const h = harness([{ text: 'Paris.' }, { text: 'About 2 million.' }, { text: 'Rome.' }, { text: 'About 2.8 million.' }]);
    const id = await say(h, null, 'Capital of France?');
    await say(h, id, 'How many people live there?');
    const [question] = await shown(h, id);

    await h.engine.editMessage(id, question!.id, 'Capital of Italy?');
    await h.engine.whenIdle();
    expect(h.model.lastMessages().filter((m) => m.role !== 'system')).toEqual([{ role: 'user', content: 'Capital of Italy?' }]);
    await say(h, id, 'How many people live there?');
    expect(JSON.stringify(h.model.lastMessages())).not.toContain('France');
    expect(texts(await shown(h, id))).toEqual(['Capital of Italy?', 'Rome.', 'How many people live there?', 'About 2.8 million.']);

    const path = await shown(h, id);
    const choice = versionsAt(path, (await h.storage.getConversation(id))?.versions).get(path[0]!.id);
    expect(choice).toMatchObject({ shown: 2, count: 2 });
    await h.engine.switchVersion(id, choice!.previous!);
    expect(texts(await shown(h, id))).toEqual(['Capital of France?', 'Paris.', 'How many people live there?', 'About 2 million.']);
    expect(h.model.requests).toHaveLength(4);
  });

  it('Edit sets pending cards aside as Send does, on the version they belong to, and the new version asks anew', async () => {
    const h = harness([bigTransfer, { text: 'Paid Grace nothing yet.' }]);
    const id = await say(h, null, 'pay Ada');
    const [card] = await pending(h, id);
    const [question] = await shown(h, id);
    await h.engine.editMessage(id, question!.id, 'never mind, just say hi');
    await h.engine.whenIdle();
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'expired', expiredReason: 'abandoned' });
    expect(h.executions).toEqual([]);
    const all = await h.storage.listMessages(id);
    const setAside = all.find((m) => m.role === 'tool' && m.toolCallId === 'call_same' && m.outcome !== 'awaiting_approval');
    expect(setAside?.branch).toBeUndefined();
    expect(all.at(-1)).toMatchObject({ role: 'assistant', branch: expect.any(String) });
    expect(texts(await shown(h, id))).toEqual(['never mind, just say hi', 'Paid Grace nothing yet.']);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('refuses what would re-run or mix versions', async () => {
    const h = harness([bigTransfer, { text: 'Done.' }]);
    const id = await say(h, null, 'pay Ada');
    // A card waits: Regenerate and switching are refused; a decision's message is never editable.
    await expect(h.engine.regenerate(id)).rejects.toMatchObject({ code: 'busy' });
    await approveAll(h, id);
    const decision = (await shown(h, id)).find((m) => m.role === 'user' && m.decision);
    await expect(h.engine.editMessage(id, decision!.id, 'forged')).rejects.toMatchObject({ code: 'invalid_version' });
    await expect(h.engine.editMessage(id, 'nope', 'x')).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.engine.switchVersion(id, 'no-such-branch')).rejects.toMatchObject({ code: 'not_found' });

    // A message of another version is not edited in place of the shown one.
    const [question] = await shown(h, id);
    h.model.push({ text: 'Hi.' });
    await h.engine.editMessage(id, question!.id, 'say hi');
    await h.engine.whenIdle();
    await expect(h.engine.editMessage(id, question!.id, 'again')).rejects.toMatchObject({ code: 'invalid_version' });
    // While it runs, nothing about versions changes.
    await h.storage.updateConversation(id, (c) => ({ ...c, state: { kind: 'running', owner: 'tab-B', since: 0 } }));
    await expect(h.engine.switchVersion(id, '')).rejects.toMatchObject({ code: 'busy' });
    await expect(h.engine.regenerate(id)).rejects.toMatchObject({ code: 'busy' });
    await h.storage.updateConversation(id, (c) => ({ ...c, state: { kind: 'idle' } }));
    expect(h.executions).toHaveLength(1);
  });

  it('Regenerate with nothing to regenerate is refused; an error is the version’s own and a switch clears it', async () => {
    const h = harness([{ fail: modelError('bad_request', 'nope') }, { text: 'ok' }]);
    const id = await say(h, null, 'hello');
    expect(await state(h, id)).toMatchObject({ kind: 'error' });
    await expect(h.engine.regenerate(id)).rejects.toBeInstanceOf(CallerError);
    await h.engine.retry(id);
    await h.engine.whenIdle();
    h.model.push({ fail: modelError('bad_request', 'again') });
    await h.engine.regenerate(id);
    await h.engine.whenIdle();
    expect(await state(h, id)).toMatchObject({ kind: 'error' });
    expect(texts(await shown(h, id))).toEqual(['hello']);
    await h.engine.switchVersion(id, '');
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect(texts(await shown(h, id))).toEqual(['hello', 'ok']);
  });

  it('refuses Edit, Regenerate and switching on a device that does not run the conversation', async () => {
    const server = new MemoryClaimServer();
    const laptop: OwnerDevice = { id: 'laptop', name: 'Chromium on Linux' };
    const phone: OwnerDevice = { id: 'phone', name: 'Chrome on Android' };
    const h = harness([{ text: 'Hi.' }], { devices: new MemoryDevices(server, laptop) });
    const id = await say(h, null, 'hello');
    const phoneEngine = h.openTab('phone-tab', { devices: new MemoryDevices(server, phone) });
    const [question] = await shown(h, id);
    await expect(phoneEngine.editMessage(id, question!.id, 'x')).rejects.toMatchObject({ code: 'elsewhere' });
    await expect(phoneEngine.regenerate(id)).rejects.toMatchObject({ code: 'elsewhere' });
    await expect(phoneEngine.switchVersion(id, '')).rejects.toMatchObject({ code: 'elsewhere' });
    expect((await h.storage.getConversation(id))?.versions).toBeUndefined();
    expect(h.model.requests).toHaveLength(1);
  });
});
