import type { PausePoint } from '../../engine/records/index.ts';

/** One line of what a call is about: an argument's name and its value, cut to stay one line. */
export interface ArgumentLine {
  name: string;
  value: string;
}

const MAX_LINES = 4;
const MAX_VALUE = 120;

/**
 * The arguments that matter, for a list of many cards at once (the batch
 * dialog): an HTTP request's method and URL; otherwise the first few
 * top-level members of the payload, each as JSON on one line, and the names
 * of the others. The card itself shows them all.
 */
export function argumentsThatMatter(pause: Pick<PausePoint, 'toolName' | 'payload'>): ArgumentLine[] {
  const payload = pause.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return payload === null || payload === undefined ? [] : [{ name: 'payload', value: oneLine(payload) }];
  }
  const entries = Object.entries(payload as Record<string, unknown>);
  const picked = pause.toolName === 'http_request' ? entries.filter(([name]) => name === 'method' || name === 'url') : entries;
  const lines = picked.slice(0, MAX_LINES).map(([name, value]) => ({ name, value: oneLine(value) }));
  // The others are named, so the list says what it leaves out (the card shows them).
  const rest = entries.filter(([name]) => !lines.some((line) => line.name === name)).map(([name]) => name);
  return rest.length > 0 ? [...lines, { name: 'also', value: rest.join(', ') }] : lines;
}

function oneLine(value: unknown): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(/\s+/g, ' ');
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
