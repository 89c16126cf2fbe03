import { matchGlob } from './glob-match.ts';
import { jsonEqual } from './json-equal.ts';
import { resolvePointer } from './json-pointer.ts';
import { isUnderPath, parseCallUrl, type CallUrl } from './match-url.ts';
import type { ArgumentMatcher } from './records/index.ts';

/**
 * One call's arguments as rules read them. Many rules point at the same
 * argument (every `http_request` rule reads `/url`), so each pointer is
 * resolved, and each URL parsed, once per call however many rules ask.
 */
export class CallArguments {
  readonly #args: unknown;
  #values: Map<string, unknown> | undefined;
  #urls: Map<string, CallUrl | null> | undefined;
  #lastPointer: string | undefined;
  #lastUrl: CallUrl | null = null;

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

  /** The URL the pointer points at, parsed for matching; null when it is not one. */
  urlAt(pointer: string): CallUrl | null {
    // Nearly every rule reads the same one (`/url`): answer it without a map lookup.
    if (pointer === this.#lastPointer) return this.#lastUrl;
    const url = this.#parseUrlAt(pointer);
    this.#lastPointer = pointer;
    this.#lastUrl = url;
    return url;
  }

  #parseUrlAt(pointer: string): CallUrl | null {
    this.#urls ??= new Map();
    const cached = this.#urls.get(pointer);
    if (cached !== undefined) return cached;
    const url = parseCallUrl(this.at(pointer));
    this.#urls.set(pointer, url);
    return url;
  }
}

/**
 * Whether one argument matcher holds for a call. A pointer that points at
 * nothing never matches: leaving an argument out cannot satisfy a rule.
 */
export function matchesArgument(matcher: ArgumentMatcher, args: CallArguments): boolean {
  if (matcher.kind === 'url') {
    const url = args.urlAt(matcher.pointer);
    if (url === null || url.origin !== matcher.origin) return false;
    return matcher.pathPrefix === undefined || isUnderPath(url.path, matcher.pathPrefix);
  }
  const value = args.at(matcher.pointer);
  if (value === undefined) return false;
  switch (matcher.kind) {
    case 'equals':
      return jsonEqual(value, matcher.value);
    case 'one_of':
      return matcher.values.some((candidate) => jsonEqual(value, candidate));
    case 'glob':
      return typeof value === 'string' && matchGlob(matcher.pattern, value);
    case 'at_most':
      return typeof value === 'number' && Number.isFinite(value) && value <= matcher.value;
    case 'at_least':
      return typeof value === 'number' && Number.isFinite(value) && value >= matcher.value;
  }
}

/** Whether every matcher holds (none: every call). */
export function matchesAll(matchers: readonly ArgumentMatcher[], args: CallArguments): boolean {
  for (const matcher of matchers) if (!matchesArgument(matcher, args)) return false;
  return true;
}
