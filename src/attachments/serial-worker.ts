/**
 * One worker that runs jobs one at a time, each within a deadline. A job past
 * its deadline is refused (`overtime`), its worker is stopped — whatever it was
 * stuck on goes with it — and the next job gets a fresh worker: one hostile
 * input stalls nothing but its own job. Jobs wait their turn, and a job's
 * deadline starts with its turn, so the refusal names the input that stalled.
 * (Parsing in one worker is one job at a time anyway: nothing is lost by the queue.)
 */
export class SerialWorker<W> {
  readonly #start: () => Promise<W>;
  readonly #stop: (worker: W) => void;
  #worker: Promise<W> | undefined;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(start: () => Promise<W>, stop: (worker: W) => void) {
    this.#start = start;
    this.#stop = stop;
  }

  run<T>(job: (worker: W) => Promise<T>, deadlineMs: number, overtime: () => Error): Promise<T> {
    const result = this.#turn.then(() => this.#runNow(job, deadlineMs, overtime));
    this.#turn = result.catch(() => undefined);
    return result;
  }

  async #runNow<T>(job: (worker: W) => Promise<T>, deadlineMs: number, overtime: () => Error): Promise<T> {
    const starting = (this.#worker ??= this.#start());
    const worker = await starting.catch((error: unknown) => {
      // A worker that did not start is tried again for the next job, not cached as a failure.
      if (this.#worker === starting) this.#worker = undefined;
      throw error;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (this.#worker === starting) this.#worker = undefined;
        this.#stop(worker);
        reject(overtime());
      }, deadlineMs);
    });
    const work = job(worker);
    // A job given up on may still fail, once its worker is stopped: nobody waits for it then.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
