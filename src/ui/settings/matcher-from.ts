import type { ArgumentMatcher } from '../../engine/records/index.ts';

export type MatcherKind = ArgumentMatcher['kind'];

export const MATCHER_KINDS: readonly { kind: MatcherKind; label: string }[] = [
  { kind: 'equals', label: 'equals' },
  { kind: 'one_of', label: 'is one of (comma-separated)' },
  { kind: 'glob', label: 'matches the pattern (* and ?)' },
  { kind: 'at_most', label: 'is a number at most' },
  { kind: 'at_least', label: 'is a number at least' },
  { kind: 'url', label: 'is a URL on the origin' },
];

/** A value as typed: JSON when it reads as JSON (42, true, "x", [1]), text otherwise. */
function valueOf(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // Not JSON: the person typed plain text, which is what they mean.
    return trimmed;
  }
}

/**
 * The argument matcher a person described in the rule form, or why it cannot
 * be one. The engine checks the result again (pointer, origin) when it makes the rule.
 */
export function matcherFrom(kind: MatcherKind, pointer: string, text: string): { ok: true; matcher: ArgumentMatcher } | { ok: false; error: string } {
  switch (kind) {
    case 'equals':
      return { ok: true, matcher: { kind, pointer, value: valueOf(text) } };
    case 'one_of': {
      const values = text.split(',').map((part) => part.trim()).filter((part) => part !== '').map(valueOf);
      return values.length > 0 ? { ok: true, matcher: { kind, pointer, values } } : { ok: false, error: 'List at least one value, separated by commas.' };
    }
    case 'glob':
      return { ok: true, matcher: { kind, pointer, pattern: text.trim() } };
    case 'at_most':
    case 'at_least': {
      const number = Number(text.trim());
      return text.trim() !== '' && Number.isFinite(number) ? { ok: true, matcher: { kind, pointer, value: number } } : { ok: false, error: 'Enter a number.' };
    }
    case 'url':
      return text.trim() !== '' ? { ok: true, matcher: { kind, pointer, origin: text.trim() } } : { ok: false, error: 'Enter an origin such as https://api.example.com.' };
  }
}
