import { ASKED_AGAIN, CHANGED_SINCE_APPROVED, STARTED_ELSEWHERE, TOOL_CHANGED, UNCLEAR } from './card-warnings.ts';
import type { PausePoint } from './records/index.ts';
import { RISK_TEXT } from './risk-label.ts';
import { showControls } from './show-controls.ts';

/** Why a card warns: its tool changed, it asks again after a restore, a rule cannot read its URL, a rule asked or would decide, its risk. */
export type ViewWarning = 'risk' | 'from_view' | 'definition_changed' | 'restored' | 'unclear_url' | 'rule' | 'dry_run' | 'edited';

/**
 * One line of a decision view. Every text is shown as it is here, control,
 * line-separator and bidi characters already escaped (show-controls.ts):
 * `description` is markdown (the card renders it sanitised), the rest plain
 * text (a rule's text may hold `*`, which markdown would take for emphasis).
 */
export type ViewLine =
  | { kind: 'title'; text: string }
  | { kind: 'tool'; text: string }
  | { kind: 'warning'; warning: ViewWarning; text: string }
  | { kind: 'description'; text: string }
  /** The heading of the argument lines that follow: what they are. */
  | { kind: 'arguments'; text: string }
  /** One top-level argument, its value as JSON, whole. */
  | { kind: 'argument'; name: string; value: string };

/** What a person must see to decide a card, in order (see `decisionView`). */
export interface DecisionView {
  pausePointId: string;
  lines: readonly ViewLine[];
}

export interface DecisionViewInput {
  pause: PausePoint;
  /**
   * The card's tool is not, now, the one the card was made for: an MCP tool
   * listed with another definition than its pin or than the card's, or gone
   * (tool-changed-now.ts). Built-in tools change only with the app.
   */
  toolChanged?: boolean;
  /** An edit of the payload not yet sent: what would run if approved now. Ignored where no edit can be made. */
  edit?: unknown;
}

/** What a surface says when the engine refused a decision because the card's view changed (`DecideResult` `changed`). */
export const VIEW_CHANGED = 'This card changed — look again';

/** The view's title line: what a surface shows as the card's heading. */
export function viewTitle(view: DecisionView): string {
  const first = view.lines[0];
  return first?.kind === 'title' ? first.text : '';
}

/** Said when the tool is not, now, the one the card was made for. */
export const CHANGED_NOW = 'This tool changed since this card was made. Its definition is not the one the card was made for: look at what it is now before deciding.';
/** Said when the arguments shown are the person's edit, not the proposal. */
export const EDITED = 'You edited the arguments. They run as shown below, not as proposed.';

const WOULD: Readonly<Record<string, string>> = { allow: 'would allow this', ask: 'would ask about this', deny: 'would refuse this' };

/** Lifted out of a gate card's description (where the engine writes them first) into warnings. */
const LEADING_WARNINGS: readonly (readonly [string, ViewWarning])[] = [
  [ASKED_AGAIN, 'restored'],
  [STARTED_ELSEWHERE, 'restored'],
  [TOOL_CHANGED, 'definition_changed'],
  [CHANGED_SINCE_APPROVED, 'definition_changed'],
  [UNCLEAR, 'unclear_url'],
];

/**
 * The decision view: the ordered lines a person must see to decide a card —
 * its title, the tool (an MCP tool's server too), every warning (its risk
 * label, an app's view that asked rather than the model, a tool that changed, asked again after a restore, a URL a rule
 * cannot read, the rule that asked, a dry-run rule that would have decided,
 * an edit), the description, and every argument in full, as it will run (an
 * unsent edit in place of the proposal). Every surface that offers a decision
 * renders this and nothing else, and a decision carries its hash
 * (view-hash.ts): the compare-and-set refuses it when the view of the card as
 * it would run now is another. Pure and zod-free: the page renders it in a
 * card's first paint.
 */
export function decisionView({ pause, toolChanged = false, edit }: DecisionViewInput): DecisionView {
  const lines: ViewLine[] = [{ kind: 'title', text: showControls(pause.title, false) }];
  const tool = toolText(pause);
  if (tool) lines.push({ kind: 'tool', text: showControls(tool, false) });
  const warn = (warning: ViewWarning, text: string) => lines.push({ kind: 'warning', warning, text: showControls(text, false) });

  warn('risk', `Risk: ${RISK_TEXT[pause.risk ?? 'unknown']}`);
  // MCP Apps: a button in a server's view made this call; the model did not ask for it.
  if (pause.fromView) warn('from_view', fromViewText(pause));
  if (toolChanged) warn('definition_changed', CHANGED_NOW);
  let description = pause.description;
  // Only the engine writes a gate card's description; the model's own card may say anything, and is not read for warnings.
  if (pause.origin === 'gate') {
    for (let lifted = true; lifted; ) {
      lifted = false;
      for (const [text, warning] of LEADING_WARNINGS) {
        if (description === text || description.startsWith(`${text}\n\n`)) {
          // The engine's own words, written as markdown for the description: plain here.
          warn(warning, text.replaceAll('**', ''));
          description = description.slice(text.length).replace(/^\n\n/, '');
          lifted = true;
        }
      }
    }
  }
  if (pause.rule && pause.origin !== 'rule') warn('rule', `Asked because of your rule: ${pause.rule.text}`);
  for (const dry of pause.dryRuns ?? []) warn('dry_run', `Rule “${dry.text}” ${WOULD[dry.effect] ?? dry.effect} (dry run: it decided nothing).`);

  const editable = pause.kind === 'approval' && (pause.origin === 'gate' || pause.origin === 'model') && pause.payload !== null && pause.payload !== undefined;
  const edited = editable && edit !== undefined && !sameJson(edit, pause.payload);
  if (edited) warn('edited', EDITED);

  if (description.trim() !== '') lines.push({ kind: 'description', text: showControls(description, true) });

  // A form's payload describes its fields (the form shows them); anything else is what the call runs with, or the model's payload.
  if (pause.kind !== 'data_entry') {
    const args = argumentLines(edited ? edit : pause.payload);
    if (args.length > 0) {
      lines.push({ kind: 'arguments', text: pause.origin === 'model' ? 'Payload' : edited ? 'Arguments as they will run (your edit)' : 'Arguments as they will run' });
      lines.push(...args);
    }
  }
  return { pausePointId: pause.id, lines };
}

/** The line of a card whose call an app's view proposed. */
export function fromViewText(pause: Pick<PausePoint, 'mcp'>): string {
  return `Asked by the interactive view of ${pause.mcp?.serverName ?? 'an MCP server'}, not by the model.`;
}

/** The tool a card is about, with its server for an MCP tool; none for the model's own question or a spending limit. */
function toolText(pause: PausePoint): string | undefined {
  if (pause.origin === 'model' || pause.origin === 'limit' || pause.toolName === '') return undefined;
  if (!pause.mcp) return pause.toolName;
  // A stored URL that does not parse is shown as it is.
  const host = URL.canParse(pause.mcp.serverUrl) ? new URL(pause.mcp.serverUrl).host : pause.mcp.serverUrl;
  return `${pause.mcp.toolName} on ${pause.mcp.serverName} (${host})`;
}

function argumentLines(payload: unknown): ViewLine[] {
  if (payload === null || payload === undefined) return [];
  if (typeof payload !== 'object' || Array.isArray(payload)) return [{ kind: 'argument', name: 'payload', value: json(payload) }];
  return Object.entries(payload).map(([name, value]) => ({ kind: 'argument', name: showControls(name, false), value: json(value) }));
}

/** JSON on one line (JSON escapes C0 controls; show-controls the rest), so no string can pass for another line or argument. */
function json(value: unknown): string {
  return showControls(JSON.stringify(value) ?? 'null', false);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
