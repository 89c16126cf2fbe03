import type { RuleDefinition, RuleStateEvent } from './records/index.ts';

/**
 * A rule's deciding state from its events, or undefined when it has none
 * (never made, not made yet here, or removed). Order-independent: it looks
 * at the set of events only, so every device holding the same events folds
 * them to the same rule, whatever order they arrived in.
 *
 * - **Removal is final.** One `removed` event and the rule is gone, whatever
 *   else arrives, a `created` of the same id included.
 * - **A disable beats what did not see it.** The rule is off while any
 *   `disabled` event stands that no enable names in its `undoes`; an enable
 *   names only the disables its device had seen, so one pressed concurrently
 *   (or a use, which writes no event at all) never undoes a disable.
 * - Otherwise it is on if it was made on, or any enable came after its making.
 * - A dry run stays one until a `Make active` (`activated`) event.
 * - Two `created` events for one id (only a misbehaving device writes that):
 *   the one with the lowest event id, so every device picks the same.
 */
export function foldRuleEvents(events: readonly RuleStateEvent[]): RuleDefinition | undefined {
  let created: Extract<RuleStateEvent['change'], { kind: 'created' }> | undefined;
  let createdId = '';
  const disables = new Set<string>();
  const undone = new Set<string>();
  let enables = 0;
  let activated = false;
  for (const event of events) {
    const { change } = event;
    switch (change.kind) {
      case 'removed':
        return undefined;
      case 'created':
        if (created === undefined || event.id < createdId) [created, createdId] = [change, event.id];
        break;
      case 'disabled':
        disables.add(event.id);
        break;
      case 'activated':
        activated = true;
      // falls through: Make active is an enable too
      case 'enabled':
        enables++;
        for (const id of change.undoes) undone.add(id);
        break;
    }
  }
  if (created === undefined) return undefined;
  const standing = [...disables].some((id) => !undone.has(id));
  const enabled = !standing && (created.rule.enabled || enables > 0);
  const { dryRun: _dryRun, ...rule } = created.rule;
  return { ...rule, enabled, ...(created.rule.dryRun === true && !activated ? { dryRun: true } : {}) };
}
