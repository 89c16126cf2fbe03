import { test, expect } from '@playwright/test';
import { expectNoSeriousViolations } from './page-checks.ts';

test('the app shell loads and has no serious accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Pausepoint', level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page);
});
