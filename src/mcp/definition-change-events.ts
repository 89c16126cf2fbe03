import type { AuditEvent } from '../engine/records/audit-event.ts';
import { describeChange } from './definition-pin.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';
import { serverLabel } from './mcp-tool.ts';

/**
 * The audit events of a `tools/list` written over a server: one per tool
 * that was listed before with another definition (a new tool is pinned, not
 * changed). Each names the server and tool, the hash before and now, the
 * pinned one, and what changed since the pin — what the next card will show.
 */
export function definitionChangeEvents(before: McpServerRecord, after: McpServerRecord, { newId, now }: { newId: () => string; now: number }): AuditEvent[] {
  const previous = new Map(before.tools.map((tool) => [tool.definition.name, tool]));
  return after.tools.flatMap((tool): AuditEvent[] => {
    const was = previous.get(tool.definition.name);
    if (!was || was.hash === tool.hash) return [];
    return [
      {
        v: 1,
        id: newId(),
        at: now,
        kind: 'tool_definition_changed',
        mcp: { serverId: after.id, serverUrl: after.url, serverName: serverLabel(after), toolName: tool.definition.name, definitionHash: tool.hash },
        previousHash: was.hash,
        pinnedHash: tool.pinned.hash,
        changes: describeChange(tool.pinned.definition, tool.definition),
      },
    ];
  });
}
