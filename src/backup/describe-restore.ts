import type { RestoreResult } from './restore-backup.ts';
import type { KeptSetting, LimitSetting } from './stricter-settings.ts';

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a restore did, in a sentence or three for the person who chose the file. */
export function describeRestore(result: RestoreResult): string {
  if (result.stopped?.while === 'checking') return 'Cancelled while the backup was being checked: nothing was restored.';
  if (result.stopped?.while === 'writing') return describeCancelled(result);
  const sentences: string[] = [];
  const wrote = result.conversations + result.notes + result.approvalRules > 0 || result.settings === 'restored';
  if (!wrote) {
    sentences.push('Nothing to restore: everything in this backup is already here.');
  } else {
    const parts: string[] = [];
    if (result.conversations > 0) {
      parts.push(`${count(result.conversations, 'conversation')} (${count(result.messages, 'message')}, ${count(result.pausePoints, 'approval')})`);
    }
    if (result.notes > 0) parts.push(count(result.notes, 'note'));
    if (result.approvalRules > 0) parts.push(count(result.approvalRules, 'approval rule'));
    if (result.settings === 'restored') parts.push('your settings');
    sentences.push(`Restored ${joinList(parts)}.`);
  }
  if (result.interrupted > 0) {
    sentences.push(
      result.interrupted === 1
        ? '1 conversation was working when the backup was made; nothing runs in it until you press Continue.'
        : `${result.interrupted} conversations were working when the backup was made; nothing runs in them until you press Continue.`,
    );
  }
  if (result.allowRulesOff > 0) {
    sentences.push(
      `${count(result.allowRulesOff, 'allow rule')} came back switched off, as a backup never grants anything by itself: turn ${result.allowRulesOff === 1 ? 'it' : 'them'} on in Settings if you still want ${result.allowRulesOff === 1 ? 'it' : 'them'}.`,
    );
  }
  if (result.conversationsKept > 0) {
    sentences.push(
      `${count(result.conversationsKept, 'conversation')} from the backup ${result.conversationsKept === 1 ? 'was' : 'were'} already here and kept as ${result.conversationsKept === 1 ? 'it is' : 'they are'}.`,
    );
  }
  const kept = describeKept(result.keptStricter);
  if (kept !== undefined) sentences.push(kept);
  if (result.settings === 'kept_current') sentences.push('Your current settings use a different endpoint, so they were kept.');
  if (result.apiKeyMissing) sentences.push('Backups never hold an API key: enter yours in Settings.');
  if (result.skippedInBackup > 0) {
    sentences.push(`The backup notes ${count(result.skippedInBackup, 'record')} that could not be read when it was made; ${result.skippedInBackup === 1 ? 'it is' : 'they are'} not in it.`);
  }
  return sentences.join(' ');
}

/**
 * A restore cancelled while writing: what it wrote is whole conversations, and
 * what it did not write, the same file adds (a restore keeps what is here).
 */
function describeCancelled(result: RestoreResult): string {
  const written = `${count(result.conversations, 'conversation')} (${count(result.messages, 'message')}, ${count(result.pausePoints, 'approval')}), each whole`;
  const left = result.conversationsLeft > 0 ? `${count(result.conversationsLeft, 'conversation')} of the backup, and its notes, approval rules, audit history and settings,` : 'The backup’s notes, approval rules, audit history and settings';
  return (
    `Cancelled. Restored ${written}. ${left} were not restored: ` +
    'restore the same file again to add them (what is here is kept as it is).'
  );
}

/** The names Settings gives these bounds. */
const LIMIT_LABELS: Record<LimitSetting, string> = {
  maxTokens: 'Max tokens per answer',
  tokenLimit: 'Token limit per conversation',
  costLimit: 'Spending limit per conversation',
  dailyCostLimit: 'Spending limit per day',
};

/** The bounds a restore kept from here, each with what the backup had instead (see stricter-settings.ts). */
function describeKept(kept: readonly KeptSetting[]): string | undefined {
  if (kept.length === 0) return undefined;
  const parts: string[] = [];
  const models: string[] = [];
  for (const item of kept) {
    if (item.setting === 'price') models.push(item.model);
    else parts.push(`${LIMIT_LABELS[item.setting]} ${number(item.kept)} (the backup had ${item.backup === null ? 'none' : number(item.backup)})`);
  }
  if (models.length > 0) parts.push(`the ${models.length === 1 ? 'price' : 'prices'} of ${joinList(models)} (the backup's were lower or missing)`);
  return `A backup never loosens a limit or lowers a price, so this browser's stricter ones were kept: ${joinList(parts)}. Change them in Settings if you mean to.`;
}

function number(n: number): string {
  return n.toLocaleString('en');
}

function joinList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
