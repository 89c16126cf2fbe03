/** One difference between the proposed payload and the edited one, at a JSON path. */
export interface PayloadChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Every leaf of a JSON value by path, its value as JSON text; empty containers are leaves. */
function flatten(value: unknown, path: string, into: Map<string, string>): Map<string, string> {
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((item, i) => flatten(item, `${path}[${i}]`, into));
  } else if (isRecord(value) && Object.keys(value).length > 0) {
    for (const key of Object.keys(value)) flatten(value[key], child(path, key), into);
  } else {
    into.set(path || '(payload)', JSON.stringify(value) ?? 'undefined');
  }
  return into;
}

/**
 * What changed from the proposed payload, key by key, so the user sees exactly
 * what they are approving that the agent did not propose.
 */
export function payloadDiff(before: unknown, after: unknown): PayloadChange[] {
  const a = flatten(before, '', new Map());
  const b = flatten(after, '', new Map());
  const changes: PayloadChange[] = [];
  for (const [path, was] of a) {
    const now = b.get(path);
    if (now === undefined) changes.push({ path, change: 'removed', before: was });
    else if (now !== was) changes.push({ path, change: 'changed', before: was, after: now });
  }
  for (const [path, now] of b) {
    if (!a.has(path)) changes.push({ path, change: 'added', after: now });
  }
  return changes;
}

export type ParsedPayload = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Parses the payload editor's text; the engine takes only a JSON object. */
export function parsePayload(text: string): ParsedPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isRecord(value)) return { ok: false, error: 'The payload must be a JSON object ({ … }).' };
  return { ok: true, value };
}
