import { decisionView, type DecisionView } from '../../engine/decision-view.ts';
import type { PausePoint } from '../../engine/records/index.ts';
import { listedToolChanged } from '../../mcp/listed-tool-changed.ts';
import type { McpServerRecord } from '../../storage/records/mcp-server-record.ts';

export { VIEW_CHANGED, viewTitle } from '../../engine/decision-view.ts';
/** The view's lines as a card and the Approve all dialog render them: loaded with the view. */
export { default as DecisionViewLines } from './DecisionView.svelte';
export { default as CardDecisionView } from './CardDecisionView.svelte';

/**
 * A card's decision view as the page shows it (src/engine/decision-view.ts):
 * with whether its MCP tool changed since, read from the stored servers, and
 * its unsent edit. Loaded on demand (decision-view-loader.svelte.ts), with
 * the first screen's records when it shows a card.
 */
export function cardView(pause: PausePoint, servers: readonly McpServerRecord[], edit?: unknown): DecisionView {
  return decisionView({ pause, toolChanged: pause.status === 'pending' && listedToolChanged(pause, servers), edit });
}
