import { isGlob } from './glob-match.ts';
import { pointerTokens } from './json-pointer.ts';
import type { ApprovalRule, ArgumentMatcher } from './records/index.ts';

export interface DescribeRuleOptions {
  /**
   * How a conversation-scoped rule names its conversation: "in this
   * conversation" (the default) where it is read beside that conversation, or
   * e.g. "in “Trip to Lyon”" in Settings.
   */
  conversation?: string;
  /** Writes the expiry, when the rule has one (the engine does not format dates). */
  formatTime?: (at: number) => string;
}

/**
 * A rule in plain words, for Settings, the audit log and the model's refusal:
 * "Allow http_request when method is GET or HEAD and url is on
 * https://api.example.com — everywhere", "Deny delete_note — in this conversation".
 * Plain text: whoever shows it escapes it for where it goes.
 */
export function describeRule(rule: Pick<ApprovalRule, 'effect' | 'tool' | 'match' | 'scope' | 'expiresAt'>, options: DescribeRuleOptions = {}): string {
  const tool = isGlob(rule.tool) ? `tools matching ${rule.tool}` : rule.tool;
  const conditions = rule.match.map(describeMatcher);
  const when = conditions.length > 0 ? ` when ${conditions.join(' and ')}` : '';
  const scope = rule.scope.kind === 'everywhere' ? 'everywhere' : (options.conversation ?? 'in this conversation');
  const until = rule.expiresAt !== null && options.formatTime ? ` until ${options.formatTime(rule.expiresAt)}` : '';
  return `${VERBS[rule.effect]} ${tool}${when} — ${scope}${until}`;
}

const VERBS: Readonly<Record<ApprovalRule['effect'], string>> = { allow: 'Allow', ask: 'Ask before', deny: 'Deny' };

/** Long values are cut: the sentence has to stay readable. */
const MAX_VALUE_CHARS = 80;

function describeMatcher(matcher: ArgumentMatcher): string {
  const subject = argumentName(matcher.pointer);
  switch (matcher.kind) {
    case 'equals':
      return `${subject} is ${valueText(matcher.value)}`;
    case 'one_of':
      return `${subject} is ${alternatives(matcher.values.map(valueText))}`;
    case 'glob':
      return `${subject} matches ${cut(matcher.pattern)}`;
    case 'at_most':
      return `${subject} is at most ${matcher.value}`;
    case 'at_least':
      return `${subject} is at least ${matcher.value}`;
    case 'url':
      return `${subject} is on ${matcher.origin}${matcher.pathPrefix !== undefined ? ` under ${cut(matcher.pathPrefix)}` : ''}`;
  }
}

/** `/url` reads "url", `/recipients/0` "recipients.0", the whole arguments "the arguments". */
function argumentName(pointer: string): string {
  const tokens = pointerTokens(pointer);
  if (tokens === undefined) return `the argument at ${cut(pointer)}`;
  return tokens.length === 0 ? 'the arguments' : cut(tokens.join('.'));
}

function alternatives(values: string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** Strings as they are (`GET`, not `"GET"`), anything else as JSON. */
function valueText(value: unknown): string {
  return cut(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
