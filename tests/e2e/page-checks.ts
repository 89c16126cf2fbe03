import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * axe-core over the page, or only over what `include` selects: no violation of serious or critical impact,
 * each one named with the elements it found. The one accessibility scan every spec uses.
 */
export async function expectNoSeriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  const scan = await (include ? builder.include(include) : builder).analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Nothing on the page scrolls sideways: neither the document nor the app's own scrolling boxes. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflowing = await page.evaluate(() => {
    const boxes = [document.documentElement, ...document.querySelectorAll<HTMLElement>('.main, .page, .scroller, .conversation')];
    return boxes.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`);
  });
  expect(overflowing).toEqual([]);
}
