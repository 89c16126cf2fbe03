import type { SyncStatus } from '../../storage/records/sync-records.ts';

export interface SyncStatusText {
  /** What is true, and what to do about it. */
  text: string;
  tone: 'ok' | 'busy' | 'warn' | 'error' | 'off';
  /** `Up to date` is followed by the time it became so. */
  showTime: boolean;
  /** The server refused this page's origin: show the settings that let it in. */
  showCors: boolean;
  /** Anything but up to date may be tried again now rather than at the next backoff. */
  offerRetry: boolean;
  /** Documents that failed to decrypt or validate, when there are any. */
  skipped: string | null;
}

/** The status line of Settings › Devices, from the worker's `syncStatus` row. */
export function syncStatusText(status: SyncStatus): SyncStatusText {
  const line = (text: string, tone: SyncStatusText['tone'], extra: Partial<SyncStatusText> = {}): SyncStatusText => ({
    text,
    skipped: skippedText(status.skipped),
    tone,
    showTime: false,
    showCors: false,
    offerRetry: tone !== 'ok' && tone !== 'off',
    ...extra,
  });
  const detail = status.message?.trim() ? ` (${status.message.trim()})` : '';
  switch (status.kind) {
    case 'off':
      return line('Sync is off.', 'off');
    case 'connecting':
      return line('Connecting to the sync server…', 'busy');
    case 'syncing':
      return line(status.progress ? `Syncing: ${status.progress.done} of ${status.progress.total}…` : 'Syncing…', 'busy');
    case 'up_to_date':
      return line('Up to date', 'ok', { showTime: true });
    case 'unreachable':
      return line(`The sync server cannot be reached${detail}. Check the address and your connection; Pausepoint keeps trying.`, 'warn');
    case 'unauthorized':
      return line('The sync server refused the user name or password. Turn sync off and on again with the right ones.', 'error');
    case 'forbidden':
      return line('The sync server refuses this user access to the database. Give the user access to it (its _security members).', 'error');
    case 'wrong_passphrase':
      return line('The encryption passphrase is wrong: this device cannot read what the others wrote. Nothing was changed.', 'error');
    case 'no_database':
      return line('The database does not exist on the sync server. Create it, or turn sync off and on again to have it created.', 'error');
    case 'cors':
      return line('The sync server refuses requests from this page (CORS). Add these settings to the server, then try again:', 'error', { showCors: true });
    case 'error':
      return line(`Sync failed${detail}. Pausepoint keeps trying.`, 'error');
  }
}

function skippedText(skipped: number): string | null {
  if (skipped <= 0) return null;
  return skipped === 1
    ? '1 document from the server could not be read and was skipped (never applied).'
    : `${skipped} documents from the server could not be read and were skipped (never applied).`;
}
