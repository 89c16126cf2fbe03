import type { LedgerEntry } from '../../engine/records/ledger-entry.ts';
import type { PausePoint } from '../../engine/records/pause-point.ts';

export const KIND_LABELS: Record<PausePoint['kind'], string> = { approval: 'Approval', choice: 'Choice', data_entry: 'Data entry' };
export const STATUS_LABELS: Record<PausePoint['status'], string> = { pending: 'Pending', resolved: 'Resolved', expired: 'Expired' };
export const ORIGIN_LABELS: Record<PausePoint['origin'], string> = {
  model: 'asked by the agent',
  gate: 'held by the tool’s approval gate',
  unknown_outcome: 'outcome unknown after an interruption',
  rule: 'decided by an approval rule',
  elicitation: 'asked by a running tool (an MCP server, or a redirect to follow)',
  limit: 'a model call that would pass a token or spending limit',
};

/** What came of running the guarded call, from its ledger entry (none: it never ran). */
export function executionLabel(ledger: LedgerEntry | null): string {
  if (!ledger) return 'Not run';
  const attempts = `${ledger.attempts} ${ledger.attempts === 1 ? 'attempt' : 'attempts'}`;
  switch (ledger.status) {
    case 'started':
      return `Started, no outcome recorded (${attempts})`;
    case 'succeeded':
      return `Succeeded (${attempts})`;
    case 'failed':
      return `Failed (${attempts})`;
    case 'unknown':
      return `Outcome unknown (${attempts})`;
    case 'skipped':
      return 'Skipped';
  }
}

export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

export function localTime(ms: number): string {
  return new Date(ms).toLocaleString();
}
