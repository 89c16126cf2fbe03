import type { KeptSetting } from './stricter-settings.ts';

/** What a restore wrote, kept and left (restore-backup.ts says how it decides each). */
export interface RestoreResult {
  /** Conversations written (with their messages, pause points and ledger records). */
  conversations: number;
  messages: number;
  /** Attached files written, with the messages that name them. */
  attachments: number;
  pausePoints: number;
  ledger: number;
  notes: number;
  /** Approval rules written; `allowRulesOff` of them are allow rules, written switched off. */
  approvalRules: number;
  allowRulesOff: number;
  /** Audit events written, as history (those already here are kept as they are). */
  auditEvents: number;
  /** Conversations written that were working when the backup was made: they wait for Continue. */
  interrupted: number;
  /** Conversations in the backup that were already here and were left as they are. */
  conversationsKept: number;
  /**
   * `restored`: the backup's settings were written (this browser's API keys, stored per
   * endpoint origin, are untouched); `unchanged`: they equal the current ones; `kept_current`:
   * this browser's settings point at another endpoint and were kept; `absent`: the backup has none.
   */
  settings: 'restored' | 'unchanged' | 'kept_current' | 'absent';
  /** True when settings were restored with no API key to go with them: the user must enter one. */
  apiKeyMissing: boolean;
  /**
   * The spending bounds kept from this browser where the backup's were looser
   * (a limit dropped or raised, a price lowered or dropped): see stricter-settings.ts.
   * Empty unless `settings` is `restored`.
   */
  keptStricter: KeptSetting[];
  /** Records the backup itself says were unreadable when it was made (and so are not in it). */
  skippedInBackup: number;
  /**
   * Why the restore ended before the file's end, or null. Cancelled while the
   * file was being checked, nothing was written; while writing, the
   * conversations written are whole (each with its messages, approvals, ledger
   * and files), and `conversationsLeft` more, the notes, rules, audit history
   * and settings were not: restoring the same file again adds them.
   */
  stopped: { reason: 'cancelled'; while: 'checking' | 'writing' } | null;
  conversationsLeft: number;
  /** The file's size. */
  bytes: number;
}

export interface RestoreProgress {
  /** `checking`: the file is read and every record checked, nothing written yet; `writing`: whole conversations are being written. */
  phase: 'checking' | 'writing';
  /** Records checked, or written, so far; `totalRecords` is the file's, once it has been checked. */
  records: number;
  totalRecords: number | null;
  /** Bytes of the file read so far, and its size. */
  bytes: number;
  totalBytes: number;
}

/** A restore that has written nothing yet, of a file of `bytes`. */
export function emptyResult(bytes: number): RestoreResult {
  return {
    conversations: 0,
    messages: 0,
    attachments: 0,
    pausePoints: 0,
    ledger: 0,
    notes: 0,
    approvalRules: 0,
    allowRulesOff: 0,
    auditEvents: 0,
    interrupted: 0,
    conversationsKept: 0,
    settings: 'absent',
    apiKeyMissing: false,
    keptStricter: [],
    skippedInBackup: 0,
    stopped: null,
    conversationsLeft: 0,
    bytes,
  };
}
