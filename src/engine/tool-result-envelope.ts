/**
 * The envelope every tool result is sent to the model in, so the model can
 * tell data a tool returned from what the user said (the system prompt says
 * how to read it). Only the request is wrapped: stored results stay as they
 * came, for the user and the audit log. An attached file's text goes in an
 * envelope of the same kind (attached-file-envelope.ts).
 *
 * The content cannot close the envelope early or open one of its own: every
 * `<tool_result`, `</tool_result`, `<attached_file` or `</attached_file` in it
 * (in any letter case) has its `<` written as `&lt;`, so the one closing
 * delimiter is the envelope's, at the end, and data of one kind cannot pass
 * for the other (a tool result for a file the user attached, or back).
 */
export const TOOL_RESULT_OPEN = '<tool_result>';
export const TOOL_RESULT_CLOSE = '</tool_result>';

const DELIMITER = /<(\/?(?:tool_result|attached_file))/gi;

export function wrapToolResult(content: string): string {
  return `${TOOL_RESULT_OPEN}\n${escapeEnvelope(content)}\n${TOOL_RESULT_CLOSE}`;
}

/** Text with every envelope delimiter made harmless, as inside an envelope. */
export function escapeEnvelope(text: string): string {
  return text.replace(DELIMITER, '&lt;$1');
}

/**
 * The content of an envelope again, for readers of requests that are not a
 * model (the offline demo's scripted model); text without one is returned as
 * it is. Exact except for content that itself held `&lt;tool_result`.
 */
export function unwrapToolResult(text: string): string {
  const open = `${TOOL_RESULT_OPEN}\n`;
  const close = `\n${TOOL_RESULT_CLOSE}`;
  if (!text.startsWith(open) || !text.endsWith(close) || text.length < open.length + close.length) return text;
  return text.slice(open.length, -close.length).replace(/&lt;(\/?(?:tool_result|attached_file))/gi, '<$1');
}
