import type { PausePoint } from './records/index.ts';

/**
 * A card `Approve all` may decide: a pending plain approval of the model's or
 * a tool's gate — no options, no form, nothing to open, not a question about
 * a call's outcome or a spending limit. (A notification's Approve draws the
 * same line: src/pwa/approval-notification.ts.) Zod-free: the page imports it.
 */
export function isPlainApproval(pause: PausePoint): boolean {
  return pause.status === 'pending' && pause.kind === 'approval' && (pause.origin === 'model' || pause.origin === 'gate');
}
