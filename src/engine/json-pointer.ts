/**
 * The value an RFC 6901 JSON pointer (`/url`, `/recipients/0`, `/a~1b` for
 * the key `a/b`) points at, or undefined when it points at nothing — JSON has
 * no undefined, so the two cannot be confused.
 *
 * The document is a tool call's arguments: untrusted. Only own properties are
 * followed (`/constructor` or `/__proto__/x` point at nothing unless the
 * arguments really have such a key), array indexes must be written as RFC 6901
 * writes them (`0`, `12`; not `01`, `-` or `1e0`), and a malformed pointer
 * points at nothing.
 */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let current = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (token === undefined || typeof current !== 'object' || current === null) return undefined;
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return undefined;
      const index = Number(token);
      if (index >= current.length) return undefined;
      current = current[index];
    } else {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    }
  }
  return current;
}

/** True when `pointer` is a well-formed RFC 6901 pointer. */
export function isValidPointer(pointer: string): boolean {
  if (pointer === '') return true;
  return pointer.startsWith('/') && pointer.slice(1).split('/').every((raw) => unescapeToken(raw) !== undefined);
}

/** The pointer's tokens, unescaped (for describing a rule); undefined when malformed. */
export function pointerTokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/').map(unescapeToken);
  return tokens.every((token) => token !== undefined) ? (tokens as string[]) : undefined;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** `~1` is `/` and `~0` is `~`, in that order (so `~01` is `~1`); any other `~` is malformed. */
function unescapeToken(raw: string): string | undefined {
  if (!raw.includes('~')) return raw;
  if (/~(?![01])/.test(raw)) return undefined;
  return raw.replaceAll('~1', '/').replaceAll('~0', '~');
}
