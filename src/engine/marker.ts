/** Part of the product's public contract: do not rename. */
export const APPROVAL_MARKER = '__APPROVAL_REQUIRED__';

export function approvalMarker(pausePointId: string): string {
  return `${APPROVAL_MARKER}${pausePointId}`;
}

/** The pause point id when a tool result starts with the marker, else null. */
export function parseApprovalMarker(toolResult: string): string | null {
  if (!toolResult.startsWith(APPROVAL_MARKER)) return null;
  const id = toolResult.slice(APPROVAL_MARKER.length).trim().split(/\s/, 1)[0] ?? '';
  return id.length > 0 ? id : null;
}
