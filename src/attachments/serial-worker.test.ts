import { afterEach, describe, expect, it, vi } from 'vitest';
import { SerialWorker } from './serial-worker.ts';

/** A fake worker: numbered as started, and told when it is stopped. */
function fakeWorkers() {
  const started: { id: number; stopped: boolean }[] = [];
  const pool = new SerialWorker(
    async () => {
      const worker = { id: started.length + 1, stopped: false };
      started.push(worker);
      return worker;
    },
    (worker) => (worker.stopped = true),
  );
  return { started, pool };
}

const never = () => new Promise<string>(() => {});
const overtime = (name: string) => () => new Error(`“${name}” took too long`);

afterEach(() => vi.useRealTimers());

describe('SerialWorker: one hostile input stalls nothing but its own job (issue 32, point 4)', () => {
  it('refuses a job past its deadline, naming it, stops its worker, and runs the next job on a fresh one', async () => {
    vi.useFakeTimers();
    const { started, pool } = fakeWorkers();
    const hostile = pool.run(never, 1_000, overtime('hostile.pdf'));
    const later = pool.run(async (worker) => `read by worker ${worker.id}`, 1_000, overtime('later.pdf'));
    const refused = expect(hostile).rejects.toThrow('“hostile.pdf” took too long');
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toEqual([{ id: 1, stopped: false }]);
    await vi.advanceTimersByTimeAsync(1);
    await refused;
    expect(await later).toBe('read by worker 2');
    expect(started).toEqual([
      { id: 1, stopped: true },
      { id: 2, stopped: false },
    ]);
  });

  it('keeps one worker for jobs that finish in time, one at a time, each deadline starting with its turn', async () => {
    vi.useFakeTimers();
    const { started, pool } = fakeWorkers();
    const order: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      order.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name} ends`);
      return name;
    };
    // Each takes 800 ms of a 1,000 ms deadline: together longer than one deadline, and neither is refused.
    const a = pool.run(slow('a', 800), 1_000, overtime('a'));
    const b = pool.run(slow('b', 800), 1_000, overtime('b'));
    await vi.advanceTimersByTimeAsync(1_600);
    expect([await a, await b]).toEqual(['a', 'b']);
    expect(order).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
    expect(started).toEqual([{ id: 1, stopped: false }]);
  });

  it('passes a job’s own failure on and keeps the worker; a worker that fails to start is started again for the next job', async () => {
    let starts = 0;
    const pool = new SerialWorker(
      async () => {
        if (++starts === 1) throw new Error('no worker');
        return starts;
      },
      () => {},
    );
    await expect(pool.run(async () => 'x', 1_000, overtime('a'))).rejects.toThrow('no worker');
    await expect(pool.run(async () => Promise.reject(new Error('not a PDF')), 1_000, overtime('b'))).rejects.toThrow('not a PDF');
    expect(await pool.run(async (worker) => worker, 1_000, overtime('c'))).toBe(2);
  });
});
