import type { Page } from '@playwright/test';
import type { FakeLlm, RecordedChatRequest } from '../../tests/fake-llm/index.ts';
import { WATCH_CARD_KEY, type CardWatch, type LatencyMarks, type Press } from './page-probes.ts';

export interface RoundTiming {
  /** Send pressed (the click's own timestamp) → the model request's head at the server. */
  sendMs: number;
  /** Approve pressed → the continuation request's head at the server. */
  approveMs: number;
  /** Reload (navigation start) → the card's Approve in the DOM, enabled and visible. */
  reloadActionableMs: number;
  /** Reload → the frame showing it produced. */
  reloadPaintedMs: number;
  /** The same two presses measured from when the page's first listener saw them (the input delay taken out). */
  sendSeenMs: number;
  approveSeenMs: number;
  /** CORS preflights (OPTIONS) the server saw in this round: a cache miss costs a round trip before each request. */
  preflights: number;
  /** Page time stamps, for mapping a trace onto the round. */
  sendPress: Press;
  approvePress: Press;
  sendRequest: RecordedChatRequest;
  approveRequest: RecordedChatRequest;
}

export const cardTitle = (round: number) => `Round ${round}: send the report?`;
export const answerText = (round: number) => `Done: report ${round} sent.`;

const marksOf = (page: Page) => page.evaluate(() => window.__latency as LatencyMarks);

async function lastPress(page: Page, label: string, after: number): Promise<Press> {
  const handle = await page.waitForFunction(
    ({ label, after }) => window.__latency?.presses.findLast((p) => p.label === label && p.at > after),
    { label, after },
    { polling: 20, timeout: 10_000 },
  );
  return (await handle.jsonValue()) as Press;
}

/**
 * One round, driven as a person would through roles and labels, in a
 * conversation that is idle: type and Send → the model asks for approval
 * (wait_for_approval) → reload with the card pending → Approve → the model
 * answers. The replies are queued before each press, so the server answers
 * at once and only the app's own time is measured.
 */
export async function playRound(page: Page, llm: FakeLlm, round: number, settleMs: number): Promise<RoundTiming> {
  const chatBefore = llm.chatRequests().length;
  const optionsBefore = llm.requests.filter((r) => r.method === 'OPTIONS').length;
  const title = cardTitle(round);
  llm.enqueue(
    {
      toolCalls: [
        {
          id: `call_round_${round}`,
          name: 'wait_for_approval',
          arguments: { title, description: `Email **report ${round}** to 3 recipients; it cannot be unsent.` },
        },
      ],
    },
    { content: answerText(round) },
  );

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(`Round ${round}: email the report, but ask me first.`);
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await send.waitFor();
  await page.waitForTimeout(settleMs);
  const before = performance.timeOrigin + performance.now();
  await send.click();
  const sendRequest = (await llm.waitForChatRequests(chatBefore + 1, 15_000))[chatBefore]!;
  const sendPress = await lastPress(page, 'Send', before - 1_000);

  const card = page.getByRole('region', { name: title, exact: true });
  const approve = card.getByRole('button', { name: 'Approve', exact: true });
  await approve.waitFor({ timeout: 15_000 });
  const pausePointId = await card.getAttribute('data-pause-point');
  if (!pausePointId) throw new Error(`The card "${title}" has no data-pause-point`);

  // Reload with the card pending; the init script watches for its Approve from navigation start.
  await page.evaluate(([key, id]) => sessionStorage.setItem(key, id), [WATCH_CARD_KEY, pausePointId] as const);
  await page.reload({ waitUntil: 'commit' });
  const watchHandle = await page.waitForFunction(() => (window.__latency?.card?.paintedAt !== undefined ? window.__latency.card : undefined), undefined, {
    polling: 20,
    timeout: 15_000,
  });
  const watch = (await watchHandle.jsonValue()) as CardWatch;
  const { timeOrigin } = await marksOf(page);
  if (watch.pausePointId !== pausePointId) throw new Error('The reload watched another card');
  // Untimed: the button the observer saw is the one a person would press.
  await approve.waitFor({ state: 'visible', timeout: 5_000 });
  if (!(await approve.isEnabled())) throw new Error(`Approve on "${title}" is not enabled after the reload`);

  // Pressed once the reloaded page is settled (its worker up): the row is about deciding, not starting.
  await page.waitForFunction(() => window.__latency?.worker.readyAt !== undefined, undefined, { polling: 20, timeout: 15_000 });
  await page.waitForTimeout(settleMs);
  const beforeApprove = performance.timeOrigin + performance.now();
  await approve.click();
  const approveRequest = (await llm.waitForChatRequests(chatBefore + 2, 15_000))[chatBefore + 1]!;
  const approvePress = await lastPress(page, 'Approve', beforeApprove - 1_000);
  await page.getByText(answerText(round), { exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole('status').filter({ hasText: 'Ready' }).first().waitFor({ timeout: 15_000 });

  const optionsAfter = llm.requests.filter((r) => r.method === 'OPTIONS').length;
  return {
    sendMs: sendRequest.receivedAt - sendPress.at,
    approveMs: approveRequest.receivedAt - approvePress.at,
    reloadActionableMs: watch.actionableAt! - timeOrigin,
    reloadPaintedMs: watch.paintedAt! - timeOrigin,
    sendSeenMs: sendRequest.receivedAt - sendPress.seenAt,
    approveSeenMs: approveRequest.receivedAt - approvePress.seenAt,
    preflights: optionsAfter - optionsBefore,
    sendPress,
    approvePress,
    sendRequest,
    approveRequest,
  };
}
