import type { McpToolAnnotations } from '../storage/records/mcp-server-record.ts';

/**
 * The annotations with the MCP spec's defaults filled in: a tool that says
 * nothing may write, destroy and reach anywhere. Shared by the cards and
 * Settings (which must not load the SDK for it).
 */
export function effectiveAnnotations(annotations: McpToolAnnotations | undefined) {
  const readOnly = annotations?.readOnlyHint === true;
  return {
    readOnly,
    // Only meaningful for a tool that changes things; the default is the worst case.
    destructive: !readOnly && annotations?.destructiveHint !== false,
    idempotent: annotations?.idempotentHint === true,
    openWorld: annotations?.openWorldHint !== false,
  };
}

export function annotationLabels(annotations: McpToolAnnotations | undefined): string[] {
  const a = effectiveAnnotations(annotations);
  return [
    a.readOnly ? 'read-only' : 'may change things',
    ...(a.destructive ? ['destructive'] : []),
    ...(a.idempotent ? ['idempotent'] : []),
    a.openWorld ? 'open-world' : 'closed-world',
  ];
}
