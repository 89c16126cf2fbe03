import { decisionView } from '../../src/engine/decision-view.ts';
import type { PausePoint } from '../../src/engine/records/index.ts';
import { viewHash } from '../../src/engine/view-hash.ts';
import { API_KEY, expect, test } from './fixtures.ts';

interface ProbeWindow {
  probe: {
    client: {
      send(conversationId: string | null, text: string): Promise<{ conversationId: string }>;
      decide(pausePointId: string, decision: unknown): Promise<{ outcome: string }>;
    };
    db: {
      pausePoints: { toArray(): Promise<PausePoint[]> };
      conversations: { get(id: string): Promise<{ state: { kind: string } } | undefined> };
    };
    saveSettings(input: unknown): Promise<unknown>;
  };
}

test('the worker runs one approval round trip through the real openai SDK', async ({ page, llm }) => {
  llm.enqueue(
    { toolCalls: [{ id: 'call_wait', name: 'wait_for_approval', arguments: { title: 'Send the invoice', description: 'Email **1** invoice of $120 to ada@example.com. Cannot be unsent.' } }] },
    { content: 'Invoice sent.' },
  );
  await page.goto('/tests/e2e/probe/worker-probe.html');
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();

  await page.evaluate(
    ([baseUrl, apiKey]) => (window as unknown as ProbeWindow).probe.saveSettings({ provider: 'custom', baseUrl, apiKey, model: 'fake-model' }),
    [llm.baseUrl, API_KEY],
  );
  const conversationId = await page.evaluate(async () => (await (window as unknown as ProbeWindow).probe.client.send(null, 'bill Ada')).conversationId);

  const pause = await expect
    .poll(() => page.evaluate(() => (window as unknown as ProbeWindow).probe.db.pausePoints.toArray()))
    .toEqual([expect.objectContaining({ status: 'pending', title: 'Send the invoice' })])
    .then(() => page.evaluate(async () => (await (window as unknown as ProbeWindow).probe.db.pausePoints.toArray())[0]!));

  // A decision crosses the protocol only bound to the view it was made on (protocol.ts: ShownDecision).
  const unbound = page.evaluate((id) => (window as unknown as ProbeWindow).probe.client.decide(id, { type: 'approve' }), pause.id);
  await expect(unbound).rejects.toThrow();
  const shown = viewHash(decisionView({ pause }));
  const outcome = await page.evaluate(([id, hash]) => (window as unknown as ProbeWindow).probe.client.decide(id, { type: 'approve', viewHash: hash }), [pause.id, shown] as const);
  expect(outcome).toEqual({ outcome: 'decided' });

  const [first, second] = await llm.waitForChatRequests(2);
  expect(first!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(second!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve' });
  expect(second!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
  await expect
    .poll(() => page.evaluate((id) => (window as unknown as ProbeWindow).probe.db.conversations.get(id).then((c) => c?.state.kind), conversationId))
    .toBe('idle');
});
