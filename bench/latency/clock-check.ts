import type { Page } from '@playwright/test';
import type { FakeLlm } from '../../tests/fake-llm/index.ts';

export interface ClockCheck {
  /** The page's clock before `fetch` → the server's receive stamp: a loopback fetch from the page, the floor of the last hop. */
  oneWayMs: number[];
  /** The server's stamp → the page's clock after the response: must not be negative either. */
  backMs: number[];
}

/**
 * Plain `fetch`es (a simple request: no preflight) from the page to the fake
 * server, each stamped in the page before and after. If the page's and the
 * server's clocks agree, every server stamp falls between its two page
 * stamps; a negative figure would mean the rows' times cannot be trusted.
 */
export async function clockCheck(page: Page, llm: FakeLlm, count: number): Promise<ClockCheck> {
  const sent = await page.evaluate(
    async ({ origin, count }) => {
      const stamps: { path: string; before: number; after: number }[] = [];
      for (let i = 0; i < count; i++) {
        const path = `/sink/bench-clock-${i}`;
        const before = performance.timeOrigin + performance.now();
        await (await fetch(origin + path, { method: 'POST', body: 'x' })).text();
        stamps.push({ path, before, after: performance.timeOrigin + performance.now() });
      }
      return stamps;
    },
    { origin: llm.origin, count },
  );
  const oneWayMs: number[] = [];
  const backMs: number[] = [];
  for (const { path, before, after } of sent) {
    const hit = llm.sinkHits(path).at(-1);
    if (!hit) throw new Error(`The clock check's request ${path} never reached the server`);
    oneWayMs.push(hit.receivedAt - before);
    backMs.push(after - hit.receivedAt);
  }
  return { oneWayMs, backMs };
}
