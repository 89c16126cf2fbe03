import type { AuditFilters } from '../../audit/audit-filters.ts';
import { PAUSE_KINDS, PauseStatus, type PauseKind } from '../../engine/records/pause-point.ts';

/** The filter form's fields as the inputs hold them: text, '' for "any". */
export interface FilterFields {
  status: string;
  kind: string;
  tool: string;
  conversationId: string;
  /** `YYYY-MM-DD` from `<input type="date">`, read as local days. */
  from: string;
  to: string;
  text: string;
  /** The view's own (view-filters.ts): which kind of entry, who decided. */
  entry: string;
  decidedBy: string;
}

export const EMPTY_FIELDS: FilterFields = { status: '', kind: '', tool: '', conversationId: '', from: '', to: '', text: '', entry: '', decidedBy: '' };

/** The filters the fields describe: "from" is the start of its day, "to" the end of its day, both local time. */
export function fieldsToFilters(fields: FilterFields): AuditFilters {
  const filters: AuditFilters = {};
  const status = PauseStatus.safeParse(fields.status);
  if (status.success) filters.status = status.data;
  if ((PAUSE_KINDS as readonly string[]).includes(fields.kind)) filters.kind = fields.kind as PauseKind;
  const tool = fields.tool.trim();
  if (tool) filters.toolName = tool;
  if (fields.conversationId) filters.conversationId = fields.conversationId;
  const from = localDay(fields.from);
  if (from) filters.from = from.getTime();
  const to = localDay(fields.to);
  if (to) filters.to = new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).getTime() - 1;
  const text = fields.text.trim();
  if (text) filters.text = text;
  return filters;
}

function localDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}
