import type { Page } from '@playwright/test';
import type { FakeLlm, RecordedChatRequest } from '../../tests/fake-llm/index.ts';
import { WATCH_CARD_KEY, type CardWatch, type LatencyMarks, type Press } from './page-probes.ts';

/** A press and the model request it caused, on one clock. */
export interface PressToRequest {
  press: Press;
  request: RecordedChatRequest;
  /** The clock mark of the document the press was made in (to find the window on a trace). */
  clockMark: LatencyMarks['clockMark'];
  /** Press (the click's own timestamp) → the request's head at the server. */
  ms: number;
  /** The same from when the page's first click listener ran: the main thread's input delay taken out. */
  seenMs: number;
}

export interface RoundTiming {
  send: PressToRequest;
  approve: PressToRequest;
  /** Only in rounds with a reload before Approve. */
  reload?: {
    /** Navigation start → the card's Approve in the DOM, enabled and visible. */
    actionableMs: number;
    /** Navigation start → the first task after the frame showing it (rAF, then a posted message). */
    paintedMs: number;
    /** Navigation start → that frame's presentation, as Element Timing reports it. */
    presentedMs: number;
    /** The reloaded document's clock mark and navigation start (epoch ms). */
    clockMark: LatencyMarks['clockMark'];
    timeOrigin: number;
  };
  /** CORS preflights (OPTIONS) the server saw in this round: a cache miss costs a round trip before its request. */
  preflights: number;
}

export const cardTitle = (round: number) => `Round ${round}: send the report?`;
export const answerText = (round: number) => `Done: report ${round} sent.`;

const epochNow = () => performance.timeOrigin + performance.now();

/** Presses `button` once the page has been idle `settleMs`, and times the `index`th chat request (0-based) against the press. */
async function pressUntilRequest(page: Page, llm: FakeLlm, button: ReturnType<Page['getByRole']>, label: string, index: number, settleMs: number): Promise<PressToRequest> {
  await button.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(settleMs);
  const before = epochNow();
  await button.click();
  const request = (await llm.waitForChatRequests(index + 1, 15_000))[index]!;
  const handle = await page.waitForFunction(
    ({ label, before }) => {
      const marks = window.__latency;
      const press = marks?.presses.findLast((p) => p.label === label && p.at >= before - 50);
      return press && marks ? { press, clockMark: marks.clockMark } : undefined;
    },
    { label, before },
    { polling: 20, timeout: 10_000 },
  );
  const { press, clockMark } = (await handle.jsonValue()) as { press: Press; clockMark: LatencyMarks['clockMark'] };
  return { press, request, clockMark, ms: request.receivedAt - press.at, seenMs: request.receivedAt - press.seenAt };
}

/**
 * One round, driven as a person would through roles and labels, in a
 * conversation that is idle: type and Send → the model asks for approval
 * (wait_for_approval) → optionally reload with the card pending → Approve →
 * the model answers. `beforePress` runs before each of the two presses, `beforeReload` before the reload. The replies are queued before each press, so the server
 * answers at once and only the app's own time is measured.
 */
export async function playRound(
  page: Page,
  llm: FakeLlm,
  round: number,
  { reload, settleMs, beforePress, beforeReload }: { reload: boolean; settleMs: number; beforePress?: () => Promise<void>; beforeReload?: () => Promise<void> },
): Promise<RoundTiming> {
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

  await page.getByRole('textbox', { name: 'Message' }).fill(`Round ${round}: email the report, but ask me first.`);
  await beforePress?.();
  const send = await pressUntilRequest(page, llm, page.getByRole('button', { name: 'Send', exact: true }), 'Send', chatBefore, settleMs);

  const card = page.getByRole('region', { name: title, exact: true });
  const approveButton = card.getByRole('button', { name: 'Approve', exact: true });
  await approveButton.waitFor({ timeout: 15_000 });

  let reloaded: RoundTiming['reload'];
  if (reload) {
    const pausePointId = await card.getAttribute('data-pause-point');
    if (!pausePointId) throw new Error(`The card "${title}" has no data-pause-point`);
    // The init script reads this at the new document's start and watches for the card's Approve from navigation start.
    await page.evaluate(([key, id]) => sessionStorage.setItem(key, id), [WATCH_CARD_KEY, pausePointId] as const);
    await beforeReload?.();
    await page.reload({ waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => (window.__latency?.card?.paintedAt !== undefined && window.__latency.card.presentedAt !== undefined ? window.__latency : undefined),
      undefined,
      { polling: 20, timeout: 15_000 },
    );
    const { card: watch, timeOrigin, clockMark } = (await handle.jsonValue()) as LatencyMarks & { card: CardWatch };
    if (watch.pausePointId !== pausePointId) throw new Error('The reload watched another card');
    reloaded = { actionableMs: watch.actionableAt! - timeOrigin, paintedMs: watch.paintedAt! - timeOrigin, presentedMs: watch.presentedAt! - timeOrigin, clockMark, timeOrigin };
    // Untimed: the button the observer saw is the one a person would press.
    await approveButton.waitFor({ state: 'visible', timeout: 5_000 });
    if (!(await approveButton.isEnabled())) throw new Error(`Approve on "${title}" is not enabled after the reload`);
    // Pressed once the new worker is up: this row is about deciding; starting is row d.
    await page.waitForFunction(() => window.__latency?.worker.readyAt !== undefined, undefined, { polling: 20, timeout: 15_000 });
  }

  await beforePress?.();
  const approve = await pressUntilRequest(page, llm, approveButton, 'Approve', chatBefore + 1, settleMs);
  await page.getByText(answerText(round), { exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole('status').filter({ hasText: 'Ready' }).first().waitFor({ timeout: 15_000 });

  const optionsAfter = llm.requests.filter((r) => r.method === 'OPTIONS').length;
  return { send, approve, ...(reloaded ? { reload: reloaded } : {}), preflights: optionsAfter - optionsBefore };
}
