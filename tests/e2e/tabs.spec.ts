import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { messageText } from '../fake-llm/index.ts';

const ROUNDS = 20;

test('two tabs approving the same card at the same moment: one decision, one continuation, one side effect — 20 rounds', async ({ context, page, llm }) => {
  test.setTimeout(180_000);
  // Each round's user message asks for a gated POST to its own sink path; the decision gets a closing answer.
  llm.onRequest((request) => {
    const last = request.body.messages.at(-1);
    const text = messageText(last);
    const round = /^round (\d+)$/.exec(text);
    if (last?.role === 'user' && round) {
      return { toolCalls: [{ id: `call_${round[1]}`, name: 'http_request', arguments: { method: 'POST', url: `${llm.origin}/sink/round-${round[1]}`, body: 'go' } }] };
    }
    return { content: `Finished after: ${text.split('\n')[0]}` };
  });
  await setUpEndpoint(page, llm);
  const other = await context.newPage();

  for (let round = 1; round <= ROUNDS; round++) {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, `round ${round}`);
    const title = `POST to ${new URL(llm.origin).host}`;
    await expect(card(page, title)).toBeVisible();
    await other.goto(page.url());
    await expect(card(other, title)).toBeVisible();

    const before = llm.chatRequests().length;
    // Both clicks are dispatched together, before either decision can reach the other tab's screen.
    const buttons = await Promise.all([page, other].map((p) => card(p, title).getByRole('button', { name: 'Approve' }).elementHandle()));
    await Promise.all(buttons.map((button) => button!.evaluate((b: HTMLButtonElement) => b.click())));
    await expect(page.getByText(`Finished after: Approval approval: approve`)).toBeVisible();
    await expect(other.getByText(`Finished after: Approval approval: approve`)).toBeVisible();
    // Exactly one tab says it lost the race (or saw the decision land from the other tab first).
    const notes = await Promise.all([page, other].map((p) => card(p, title).getByText(/in another tab/).count()));
    expect(notes.filter((n) => n > 0)).toHaveLength(1);

    expect(llm.sinkHits(`/sink/round-${round}`), `round ${round}: side effects`).toHaveLength(1);
    expect(llm.chatRequests().length - before, `round ${round}: continuations`).toBe(1);
  }
});

test('the owner tab closed in the middle of a turn: the other open tab recovers the conversation', async ({ context, page, llm }) => {
  // About 36 s of streaming: still running when the second tab is up, however loaded the machine (at 8 repetitions,
  // 7 s, a loaded run saw the answer end before the owner tab closed, and there was nothing to recover).
  const slow = 'A slow answer that will be cut off when its tab closes. '.repeat(40);
  llm.enqueue({ content: slow, chunkSize: 5, chunkDelayMs: 80 }, { content: 'Recovered by the other tab.' });
  await setUpEndpoint(page, llm);
  const watcher = await context.newPage();

  await send(page, 'start a long answer');
  await expect(page.getByText('A slow answer', { exact: false }).first()).toBeVisible();
  await watcher.goto(page.url());
  await expect(watcher.getByText('A slow answer', { exact: false }).first()).toBeVisible();
  // The turn is still running when its tab closes.
  await expect(watcher.getByRole('button', { name: 'Stop' })).toBeVisible();
  await page.close();

  await expect(watcher.getByText('Recovered by the other tab.')).toBeVisible({ timeout: 20_000 });
  expect(llm.chatRequests()).toHaveLength(2);
});
