import { matchGlob } from './glob-match.ts';
import { jsonEqual } from './json-equal.ts';
import { resolvePointer } from './json-pointer.ts';
import { isNormalisedPath, isPathGlob } from './path-glob.ts';
import { isUnderPath, parseCallUrl, isRuleOrigin, UNCLEAR_URL, type CallUrl } from './match-url.ts';
import type { ArgumentMatcher } from './records/index.ts';

/**
 * One call's arguments as rules read them. Many rules point at the same
 * argument (every `http_request` rule reads `/url`), so each pointer is
 * resolved, and each URL parsed, once per call however many rules ask.
 */
export class CallArguments {
  readonly #args: unknown;
  #values: Map<string, unknown> | undefined;
  #urls: Map<string, ParsedUrl> | undefined;
  #lastPointer: string | undefined;
  #lastUrl: ParsedUrl = null;

  constructor(args: unknown) {
    this.#args = args;
  }

  /** What the pointer points at; undefined for nothing. */
  at(pointer: string): unknown {
    this.#values ??= new Map();
    if (this.#values.has(pointer)) return this.#values.get(pointer);
    const value = resolvePointer(this.#args, pointer);
    this.#values.set(pointer, value);
    return value;
  }

  /** The URL the pointer points at, parsed for matching; `unclear` or null when it is not one a rule may read (see parseCallUrl). */
  urlAt(pointer: string): ParsedUrl {
    // Nearly every rule reads the same one (`/url`): answer it without a map lookup.
    if (pointer === this.#lastPointer) return this.#lastUrl;
    const url = this.#parseUrlAt(pointer);
    this.#lastPointer = pointer;
    this.#lastUrl = url;
    return url;
  }

  #parseUrlAt(pointer: string): ParsedUrl {
    this.#urls ??= new Map();
    const cached = this.#urls.get(pointer);
    if (cached !== undefined) return cached;
    const url = parseCallUrl(this.at(pointer));
    this.#urls.set(pointer, url);
    return url;
  }
}

/**
 * Whether one argument matcher holds for a call: `holds`, `fails`, or
 * `unclear` when the argument is a URL or path the rule cannot read the way
 * the server will (see match-url.ts and path-glob.ts) — neither, so the call
 * must ask. A pointer that points at nothing fails: leaving an argument out
 * cannot satisfy a rule.
 */
export function matchesArgument(matcher: ArgumentMatcher, args: CallArguments): ArgumentMatch {
  if (matcher.kind === 'url') {
    const url = args.urlAt(matcher.pointer);
    if (url === UNCLEAR_URL) return 'unclear';
    if (url === null || !isRuleOrigin(url.origin, matcher.origin)) return 'fails';
    return matcher.pathPrefix === undefined || isUnderPath(url.path, matcher.pathPrefix) ? 'holds' : 'fails';
  }
  const value = args.at(matcher.pointer);
  if (value === undefined) return 'fails';
  if (matcher.kind === 'glob') {
    if (typeof value !== 'string') return 'fails';
    if (isPathGlob(matcher.pattern) && !isNormalisedPath(value)) return 'unclear';
    return verdictOf(matchGlob(matcher.pattern, value));
  }
  switch (matcher.kind) {
    case 'equals':
      return verdictOf(jsonEqual(value, matcher.value));
    case 'one_of':
      return verdictOf(matcher.values.some((candidate) => jsonEqual(value, candidate)));
    case 'at_most':
      return verdictOf(typeof value === 'number' && Number.isFinite(value) && value <= matcher.value);
    case 'at_least':
      return verdictOf(typeof value === 'number' && Number.isFinite(value) && value >= matcher.value);
  }
}

/** Whether every matcher holds (none: every call): any that fails decides; else any unclear one. */
export function matchesAll(matchers: readonly ArgumentMatcher[], args: CallArguments): ArgumentMatch {
  let result: ArgumentMatch = 'holds';
  for (const matcher of matchers) {
    const one = matchesArgument(matcher, args);
    if (one === 'fails') return 'fails';
    if (one === 'unclear') result = 'unclear';
  }
  return result;
}

export type ArgumentMatch = 'holds' | 'fails' | 'unclear';

/** A URL argument as `CallArguments.urlAt` gives it. */
export type ParsedUrl = CallUrl | typeof UNCLEAR_URL | null;

const verdictOf = (holds: boolean): ArgumentMatch => (holds ? 'holds' : 'fails');
