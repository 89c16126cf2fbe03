/**
 * Whether a key press belongs to what has focus rather than to a shortcut:
 * typing in a text field (or anything editable), or anything inside an open
 * dialog, which has its own keys. Shortcuts never fire there.
 */
export function keyBelongsToTarget(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (target.closest('dialog')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

/** Inputs that take no typing: a letter pressed on them is free for a shortcut. */
const NOT_TEXT = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/**
 * The shortcut a key press asks for, lower-cased (`a`, `d`, `j`, `k`, `?`), or
 * null: with Ctrl, Alt or Meta held it is the browser's or the system's, and
 * in a text field it is typing.
 */
export function shortcutKey(event: KeyboardEvent): string | null {
  if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing || event.defaultPrevented) return null;
  if (keyBelongsToTarget(event)) return null;
  return event.key.length === 1 ? event.key.toLowerCase() : null;
}

/** Whether some modal dialog is open: window-wide shortcuts wait until it is closed. */
export function dialogOpen(doc: Document = document): boolean {
  return doc.querySelector('dialog[open]') !== null;
}
