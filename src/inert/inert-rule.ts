import type { ApprovalRule } from '../engine/records/index.ts';
import { clampRule } from './clamp-times.ts';

/**
 * An approval rule from a file (a backup), as it is written here: marked as
 * from a backup, an allow rule switched off (a stolen or crafted file must not
 * grant anything), ask and deny rules on (they only restrict), its times clamped.
 */
export function inertRule(rule: ApprovalRule, at: number): ApprovalRule {
  return { ...clampRule(rule, at), source: 'backup', enabled: rule.effect !== 'allow' };
}
