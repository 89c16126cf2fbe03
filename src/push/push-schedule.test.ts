import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PushSchedule, RETRY_DELAYS_MS, type PushableCard, type PushReason, type SendOutcome } from './push-schedule.ts';

const GRACE = 20_000;
const plan = { graceMs: GRACE, reminderMs: null };
const none: ReadonlySet<string> = new Set();

let sends: [string, PushReason][];
let outcomes: SendOutcome[];
function schedule(): PushSchedule {
  return new PushSchedule(async (card, reason) => {
    sends.push([card.id, reason]);
    return outcomes.shift() ?? 'sent';
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  sends = [];
  outcomes = [];
});
afterEach(() => vi.useRealTimers());

const card = (id: string, extra: Partial<PushableCard> = {}): PushableCard => ({ id, createdAt: Date.now(), ...extra });

describe('PushSchedule', () => {
  it('pushes a card still pending when its grace period ends, once', async () => {
    const s = schedule();
    s.update([card('a')], none, plan);
    await vi.advanceTimersByTimeAsync(GRACE - 1);
    expect(sends).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends).toEqual([['a', 'new']]);
    s.update([card('a', { createdAt: 1_000_000 })], none, plan);
    await vi.advanceTimersByTimeAsync(10 * GRACE);
    expect(sends).toEqual([['a', 'new']]);
  });

  it('sends nothing for a card decided or expired within its grace period', async () => {
    const s = schedule();
    s.update([card('a')], none, plan);
    await vi.advanceTimersByTimeAsync(GRACE - 500);
    s.update([], none, plan);
    await vi.advanceTimersByTimeAsync(10 * GRACE);
    expect(sends).toEqual([]);
  });

  it('sends nothing while a visible tab shows the card, and starts the grace again when it stops', async () => {
    const s = schedule();
    const a = card('a');
    s.update([a], new Set(['a']), plan);
    await vi.advanceTimersByTimeAsync(3 * GRACE);
    expect(sends).toEqual([]);
    s.update([a], none, plan);
    await vi.advanceTimersByTimeAsync(GRACE - 1);
    expect(sends).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends).toEqual([['a', 'new']]);
  });

  it('pushes again at the reminder, and before an automatic decline', async () => {
    const s = schedule();
    const a = card('a', { declineAt: Date.now() + 3_600_000 });
    s.update([a], none, { graceMs: GRACE, reminderMs: 300_000 });
    await vi.advanceTimersByTimeAsync(300_000);
    expect(sends).toEqual([
      ['a', 'new'],
      ['a', 'reminder'],
    ]);
    // A quarter of the hour's wait, at most 15 minutes, before it is declined.
    await vi.advanceTimersByTimeAsync(3_600_000 - 300_000 - 15 * 60_000 - 1);
    expect(sends).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends.at(-1)).toEqual(['a', 'decline_warning']);
  });

  it('retries a failed push after 5 s, 15 s, 1 min and 5 min, then gives up', async () => {
    const s = schedule();
    outcomes = ['retry', 'retry', 'retry', 'retry', 'retry'];
    s.update([card('a')], none, plan);
    await vi.advanceTimersByTimeAsync(GRACE);
    const at = [Date.now()];
    for (const delay of RETRY_DELAYS_MS) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(sends).toHaveLength(at.length);
      await vi.advanceTimersByTimeAsync(1);
      at.push(Date.now());
    }
    expect(sends).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(sends).toHaveLength(5);
  });

  it('stops retrying once the card is decided, and never retries a refusal', async () => {
    const s = schedule();
    outcomes = ['retry'];
    s.update([card('a')], none, plan);
    await vi.advanceTimersByTimeAsync(GRACE);
    s.update([], none, plan);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(sends).toHaveLength(1);

    outcomes = ['failed'];
    s.update([card('b')], none, plan);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(sends).toEqual([
      ['a', 'new'],
      ['b', 'new'],
    ]);
  });

  it('does not push a card whose grace ended before the schedule started, nor anything with pushes off', async () => {
    const old = card('old', { createdAt: Date.now() - 2 * GRACE });
    const s = schedule();
    s.update([old, card('b')], none, null);
    await vi.advanceTimersByTimeAsync(3 * GRACE);
    expect(sends).toEqual([]);
    s.update([old, card('b', { createdAt: 1_000_000 })], none, plan);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends).toEqual([['b', 'new']]);
  });
});
