import { codeFence } from './code-fence.ts';
import { escapeEnvelope } from './tool-result-envelope.ts';

/**
 * The envelope an attached file's text is sent to the model in: data the
 * person handed over to be read, not words of theirs to be followed (the
 * system prompt says so). Anyone may have written a file, a PDF's hidden
 * text included. The envelope is a tool result's kind (tool-result-envelope.ts):
 * nothing inside can close it or open another, in any letter case.
 */
export const ATTACHED_FILE_OPEN = '<attached_file>';
export const ATTACHED_FILE_CLOSE = '</attached_file>';

/** `Attached file "name" (type):` and the file's text fenced, in the envelope. */
export function wrapAttachedFile(name: string, type: string, text: string): string {
  return `${ATTACHED_FILE_OPEN}\n${attachedFileIntro(name, type)}\n${codeFence(escapeEnvelope(text))}\n${ATTACHED_FILE_CLOSE}`;
}

export function attachedFileIntro(name: string, type: string): string {
  return `Attached file ${quotedName(name)} (${escapedType(type)}):`;
}

/** A stored file's media type, which an imported record could have made anything: escaped as a name is, without the quotes. */
export function escapedType(type: string): string {
  return quotedName(type).slice(1, -1);
}

/**
 * A file's name as the model reads it: in double quotes, as a JSON string (a
 * quote or a line break in it is escaped, so it cannot end the name early or
 * start a line of its own), with what would otherwise be invisible or move
 * text around — U+2028/2029, bidirectional controls — written as `\uXXXX`,
 * and no envelope delimiter. The name is the sender's choice, as the text is.
 */
export function quotedName(name: string): string {
  return escapeEnvelope(escapeInvisible(JSON.stringify(name)));
}

// Line and paragraph separators, bidi marks, embeddings, overrides and isolates, and the C1 controls (JSON leaves them).
const INVISIBLE = /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
