import { describe, expect, test } from 'vitest';

describe('zod-config', () => {
  test('turns off zod’s eval before zod is loaded, without importing zod', async () => {
    // Fresh modules: this file imports zod only after the configuration ran, as the page does.
    const host = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
    await import('./zod-config.ts');
    expect(host.__zod_globalConfig?.jitless).toBe(true);
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    expect(z.config()).toBe(host.__zod_globalConfig);
  });
});
