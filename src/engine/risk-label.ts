import type { PausePoint, Risk } from './records/index.ts';
import type { ToolDefinition } from './tool-definition.ts';

/** The label as a card and a notification show it: text, never colour alone. */
export const RISK_TEXT: Readonly<Record<Risk, string>> = {
  reads: 'Reads',
  changes: 'Changes',
  destructive: 'Destructive',
  unknown: 'Unknown effect',
};

/** What an HTTP method does: GET, HEAD and OPTIONS read, DELETE destroys, anything else changes. */
export function httpMethodRisk(method: string): Risk {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS') return 'reads';
  if (upper === 'DELETE') return 'destructive';
  return 'changes';
}

/** The hints an MCP server gives about a tool (MCP's `ToolAnnotations`), as far as the label reads them. */
export interface RiskHints {
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
}

/**
 * An MCP tool's label from its annotations. An annotation is only the
 * server's claim: from a server the person has not trusted it can take a
 * tool from the spec's default (may destroy) down to `changes`, never to
 * `reads`; a claim of harm counts from any server. `idempotentHint` and
 * `openWorldHint` say how a change behaves or how far it reaches, not whether
 * there is one, so they do not move the label.
 */
export function mcpAnnotationRisk(hints: RiskHints | undefined, trusted: boolean): Risk {
  if (hints?.destructiveHint === true) return 'destructive';
  if (hints?.readOnlyHint === true) return trusted ? 'reads' : 'changes';
  // Not read-only: the spec's default is destructive, unless the server says otherwise.
  return hints?.destructiveHint === false ? 'changes' : 'destructive';
}

/**
 * A `wait_for_approval` card, by its kind. The model's words are all the app
 * knows of what follows an approval, a choice or a form — and every tool call
 * the model makes after it is labelled (and asked) on its own — so each kind
 * is `unknown`: the card claims nothing it cannot see.
 */
export function waitForApprovalRisk(kind: PausePoint['kind']): Risk {
  switch (kind) {
    case 'approval':
    case 'choice':
    case 'data_entry':
      return 'unknown';
  }
}

/**
 * The label of the card a pause point makes, by why it asks:
 * - a spending limit card spends money: `changes`;
 * - the model's own question (`wait_for_approval`, the only tool that pauses
 *   through `ToolContext.pause`) goes by its kind;
 * - an MCP server's question while its tool runs: `unknown` (what the server
 *   does with the answer is its business);
 * - a call's card (its gate, an ask rule, a rule's decision, an unknown
 *   outcome's Run again) by what the tool declares for these arguments
 *   (`ToolDefinition.risk`); a tool that declares nothing, or is gone, is `unknown`.
 */
export function riskOfPause(tool: Pick<ToolDefinition, 'risk'> | undefined, pause: Pick<PausePoint, 'origin' | 'kind' | 'payload'>): Risk {
  switch (pause.origin) {
    case 'limit':
      return 'changes';
    case 'model':
      return waitForApprovalRisk(pause.kind);
    case 'elicitation':
      return 'unknown';
    case 'gate':
    case 'rule':
    case 'unknown_outcome':
      // These cards' payload is the call's arguments (as proposed, or as they ran).
      return tool?.risk?.(pause.payload) ?? 'unknown';
  }
}
