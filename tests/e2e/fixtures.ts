import { test as base, expect } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../fake-llm/index.ts';

/** Every test gets its own scripted model server on a random loopback port. */
export const test = base.extend<{ llm: FakeLlm }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  llm: async ({}, use) => {
    const llm = await startFakeLlm({ requireKey: 'sk-e2e-secret' });
    await use(llm);
    await llm.close();
  },
});

export { expect };
export const API_KEY = 'sk-e2e-secret';
