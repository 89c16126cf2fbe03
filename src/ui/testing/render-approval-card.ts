import { render } from '@testing-library/svelte';
import type { PausePoint } from '../../engine/records/index.ts';
import ApprovalCard from '../cards/ApprovalCard.svelte';
import { loadCardView } from '../cards/decision-view-loader.svelte.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { fakeContext } from './fake-app.svelte.ts';

/**
 * The code a card renders with that loads on demand (the markdown renderer, the decision view), loaded
 * before any card renders, as the first screen loads it before a card shows (first-screen.ts): a test
 * file's `beforeAll`.
 */
export const loadCardCode = () => Promise.all([loadMarkdown(), loadCardView()]);

/** One card in a fake app: its client (`decide` a mock) and the render's handle. */
export function renderCard(pause: PausePoint) {
  const fake = fakeContext();
  const view = render(ApprovalCard, { props: { pause }, context: fake.context });
  return { ...fake, ...view };
}
