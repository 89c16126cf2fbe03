import type { RestoreResult } from './restore-backup.ts';

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a restore did, in a sentence or three for the person who chose the file. */
export function describeRestore(result: RestoreResult): string {
  const sentences: string[] = [];
  const wrote = result.conversations + result.messages + result.pausePoints + result.ledger + result.notes > 0 || result.settings === 'restored';
  if (!wrote) {
    sentences.push('Nothing to restore: everything in this backup is already here.');
  } else {
    const parts: string[] = [];
    if (result.conversations > 0) {
      parts.push(`${count(result.conversations, 'conversation')} (${count(result.messages, 'message')}, ${count(result.pausePoints, 'approval')})`);
    }
    if (result.notes > 0) parts.push(count(result.notes, 'note'));
    if (result.settings === 'restored') parts.push('your settings');
    const orphans = result.conversations === 0 && result.messages + result.pausePoints + result.ledger > 0;
    if (orphans) parts.push(count(result.messages + result.pausePoints + result.ledger, 'record'));
    sentences.push(`Restored ${joinList(parts)}.`);
  }
  if (result.conversationsKept > 0) {
    sentences.push(
      `${count(result.conversationsKept, 'conversation')} from the backup ${result.conversationsKept === 1 ? 'was' : 'were'} already here and kept as ${result.conversationsKept === 1 ? 'it is' : 'they are'}.`,
    );
  }
  if (result.settings === 'kept_current') sentences.push('Your current settings use a different endpoint, so they were kept.');
  if (result.apiKeyMissing) sentences.push('Backups never hold an API key: enter yours in Settings.');
  if (result.skippedInBackup > 0) {
    sentences.push(`The backup notes ${count(result.skippedInBackup, 'record')} that could not be read when it was made; ${result.skippedInBackup === 1 ? 'it is' : 'they are'} not in it.`);
  }
  return sentences.join(' ');
}

function joinList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
