import { describe, expect, it } from 'vitest';
import { ReminderSchedule, type ReminderTimers } from './reminder-schedule.ts';

/** Timers that fire only when the test moves time on. */
class FakeTimers implements ReminderTimers {
  #now: number;
  #next = 0;
  readonly #due = new Map<number, { at: number; run: () => void }>();
  constructor(start = 1_000_000) {
    this.#now = start;
  }
  now() {
    return this.#now;
  }
  setTimeout(run: () => void, ms: number) {
    const handle = this.#next++;
    this.#due.set(handle, { at: this.#now + ms, run });
    return handle;
  }
  clearTimeout(handle: unknown) {
    this.#due.delete(handle as number);
  }
  get pending() {
    return this.#due.size;
  }
  advance(ms: number) {
    this.#now += ms;
    for (const [handle, timer] of [...this.#due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.#now) continue;
      this.#due.delete(handle);
      timer.run();
    }
  }
}

const MIN = 60_000;

function setUp(start = 1_000_000) {
  const timers = new FakeTimers(start);
  const reminded: string[] = [];
  const schedule = new ReminderSchedule((id) => reminded.push(id), timers);
  return { timers, reminded, schedule };
}

describe('ReminderSchedule', () => {
  it('a card still pending after the delay is reminded once, at createdAt + delay', () => {
    const { timers, reminded, schedule } = setUp();
    schedule.update([{ id: 'p1', createdAt: timers.now() }], 5);
    timers.advance(5 * MIN - 1);
    expect(reminded).toEqual([]);
    timers.advance(1);
    expect(reminded).toEqual(['p1']);
    // Later updates with the card still pending remind no more.
    schedule.update([{ id: 'p1', createdAt: timers.now() - 5 * MIN }], 5);
    timers.advance(60 * MIN);
    expect(reminded).toEqual(['p1']);
  });

  it('a card decided before its time is not reminded', () => {
    const { timers, reminded, schedule } = setUp();
    schedule.update([{ id: 'p1', createdAt: timers.now() }], 15);
    timers.advance(10 * MIN);
    schedule.update([], 15);
    timers.advance(10 * MIN);
    expect(reminded).toEqual([]);
    expect(timers.pending).toBe(0);
  });

  it('off reminds nothing, and switching it on schedules the cards pending since', () => {
    const { timers, reminded, schedule } = setUp();
    const card = { id: 'p1', createdAt: timers.now() };
    schedule.update([card], null);
    timers.advance(2 * MIN);
    expect(timers.pending).toBe(0);
    schedule.update([card], 5);
    timers.advance(3 * MIN);
    expect(reminded).toEqual(['p1']);
  });

  it('a changed delay moves the reminders not yet made', () => {
    const { timers, reminded, schedule } = setUp();
    const card = { id: 'p1', createdAt: timers.now() };
    schedule.update([card], 5);
    schedule.update([card], 60);
    timers.advance(15 * MIN);
    expect(reminded).toEqual([]);
    timers.advance(45 * MIN);
    expect(reminded).toEqual(['p1']);
  });

  it('a card already past its reminder time when first seen is not reminded (it fell due while no tab was open)', () => {
    const { timers, reminded, schedule } = setUp();
    schedule.update([{ id: 'old', createdAt: timers.now() - 2 * 60 * MIN }, { id: 'new', createdAt: timers.now() - 1 * MIN }], 5);
    timers.advance(4 * MIN);
    expect(reminded).toEqual(['new']);
    timers.advance(120 * MIN);
    expect(reminded).toEqual(['new']);
  });

  it('several cards are reminded each at its own time; dispose cancels what is left', () => {
    const { timers, reminded, schedule } = setUp();
    const now = timers.now();
    schedule.update([{ id: 'a', createdAt: now }, { id: 'b', createdAt: now + 2 * MIN }], 5);
    timers.advance(5 * MIN);
    expect(reminded).toEqual(['a']);
    schedule.dispose();
    timers.advance(10 * MIN);
    expect(reminded).toEqual(['a']);
  });
});
