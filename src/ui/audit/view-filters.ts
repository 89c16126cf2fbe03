import type { AuditEvent } from '../../engine/records/audit-event.ts';
import type { PausePoint } from '../../engine/records/pause-point.ts';

/**
 * The audit view's own filters, beside the export's (audit-filters.ts): which
 * kind of entry, and who decided. They narrow what the list shows.
 */
export const ENTRY_KINDS = {
  decision: 'Decisions',
  rule_change: 'Rule changes',
  dry_run: 'Dry runs',
  tool_change: 'Tool changes',
  push: 'Push notifications',
} as const;
export type EntryKind = keyof typeof ENTRY_KINDS;

export const DECIDERS = {
  person: 'A person',
  rule: 'A rule',
  expiry: 'Expiry',
  timeout: 'The timeout (If nobody decides)',
  device: 'Another device',
} as const;
export type Decider = keyof typeof DECIDERS;

export interface ViewFilters {
  entry: EntryKind | null;
  decidedBy: Decider | null;
}

export const NO_VIEW_FILTERS: ViewFilters = { entry: null, decidedBy: null };

export function viewFiltersOf(fields: { entry: string; decidedBy: string }): ViewFilters {
  return {
    entry: Object.hasOwn(ENTRY_KINDS, fields.entry) ? (fields.entry as EntryKind) : null,
    decidedBy: Object.hasOwn(DECIDERS, fields.decidedBy) ? (fields.decidedBy as Decider) : null,
  };
}

/**
 * Who decided a pause point: a person here (on a card), a person on another
 * device (the decision reached this one through sync), an approval rule, or
 * nobody (it expired); null while pending.
 */
export function deciderOf(pause: PausePoint): Decider | null {
  if (pause.status === 'expired') return 'expiry';
  if (pause.status !== 'resolved') return null;
  if (pause.origin === 'rule') return 'rule';
  if (pause.decidedBy?.via === 'timeout') return 'timeout';
  return pause.decidedBy?.via === 'sync' ? 'device' : 'person';
}

export function showsDecisions(view: ViewFilters): boolean {
  return view.entry === null || view.entry === 'decision';
}

/**
 * Whether the view shows an audit event. "Who decided" is about decisions: a
 * rule change counts as a person's (or another device's) when someone made it,
 * a dry run as a rule's; a tool's change was decided by nobody here.
 */
export function showsEvent(event: AuditEvent, view: ViewFilters): boolean {
  const entry: EntryKind = event.kind === 'tool_definition_changed' ? 'tool_change' : event.kind === 'rule_dry_run' ? 'dry_run' : event.kind === 'push_sent' ? 'push' : 'rule_change';
  if (view.entry !== null && view.entry !== entry) return false;
  if (view.decidedBy === null) return true;
  if (event.kind === 'rule_dry_run') return view.decidedBy === 'rule';
  if (event.kind === 'tool_definition_changed' || event.kind === 'push_sent' || event.by === undefined) return false;
  return view.decidedBy === (event.by.via === 'sync' ? 'device' : 'person');
}
