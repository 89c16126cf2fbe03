import type { EngineContext } from './engine-context.ts';
import { CallerError } from './errors.ts';
import { isGlob } from './glob-match.ts';
import { isValidPointer } from './json-pointer.ts';
import { canonicalOrigin, normalisePath } from './match-url.ts';
import { describeIssues } from './parse-call.ts';
import { ApprovalRule, ApprovalRuleDraft, type ArgumentMatcher } from './records/index.ts';
import { WAIT_FOR_APPROVAL } from './wait-for-approval.ts';

/**
 * A complete rule from a draft (a card button's or Settings'), checked: a
 * rule that could never match, or would match something other than what it
 * says, is refused with a sentence the user can act on rather than stored.
 * A rule over an exact tool name is bound to that tool's definition as it is
 * now; a glob over names is bound to none (it is meant for tools to come).
 */
export async function newRule(ctx: Pick<EngineContext, 'tools' | 'storage' | 'clock' | 'ids'>, input: unknown): Promise<ApprovalRule> {
  const parsed = ApprovalRuleDraft.safeParse(input);
  if (!parsed.success) throw new CallerError('invalid_rule', `That rule is not valid: ${describeIssues(parsed.error)}.`);
  const draft = parsed.data;
  const now = ctx.clock.now();

  if (draft.tool === WAIT_FOR_APPROVAL) {
    throw new CallerError('invalid_rule', `No rule can decide ${WAIT_FOR_APPROVAL}: the assistant uses it to ask you in person.`);
  }
  let definitionHash: string | null = null;
  if (!isGlob(draft.tool)) {
    const hash = ctx.tools.definitionHash(draft.tool);
    if (!hash) throw new CallerError('invalid_rule', `There is no tool named "${draft.tool}".`);
    definitionHash = await hash;
  }
  if (draft.expiresAt !== null && draft.expiresAt <= now) throw new CallerError('invalid_rule', 'That rule would have expired already.');
  if (draft.scope.kind === 'conversation' && !(await ctx.storage.getConversation(draft.scope.conversationId))) {
    throw new CallerError('not_found', 'The conversation of that rule no longer exists.');
  }
  const reason = draft.reason?.trim();

  return ApprovalRule.parse({
    v: 1,
    id: ctx.ids.uuid(),
    effect: draft.effect,
    tool: draft.tool,
    match: draft.match.map(checkedMatcher),
    scope: draft.scope,
    source: draft.source,
    createdAt: now,
    lastUsedAt: null,
    expiresAt: draft.expiresAt,
    ...(reason ? { reason } : {}),
    definitionHash,
    enabled: draft.enabled,
    ...(draft.dryRun ? { dryRun: true } : {}),
  });
}

/** A matcher as it will be compared: its pointer well-formed, a URL's origin in canonical form. */
function checkedMatcher(matcher: ArgumentMatcher): ArgumentMatcher {
  if (!isValidPointer(matcher.pointer)) {
    throw new CallerError('invalid_rule', `"${matcher.pointer}" does not point at an argument (write it like /url or /recipients/0).`);
  }
  if (matcher.kind !== 'url') return matcher;
  const origin = canonicalOrigin(matcher.origin);
  if (origin === null) throw new CallerError('invalid_rule', `"${matcher.origin}" is not an origin (write it like https://api.example.com).`);
  if (matcher.pathPrefix !== undefined && (!matcher.pathPrefix.startsWith('/') || normalisePath(matcher.pathPrefix) === null)) {
    throw new CallerError('invalid_rule', `"${matcher.pathPrefix}" is not a path (write it like /v1/).`);
  }
  return { ...matcher, origin };
}
