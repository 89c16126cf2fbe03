import type { z } from 'zod';
import { BackupError } from './backup-error.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupSettings, READABLE_VERSIONS, type ReadableVersion } from './backup-format.ts';
import { settingsEndpointProblem } from './settings-endpoint-problem.ts';

/** Every refusal of a restore ends so: a refused file writes nothing. */
export const NOTHING = 'Nothing was restored.';

/** The file's format and version, checked: another format, a newer version and an unknown one are refused, each with its own message. */
export function checkFormatAndVersion(format: unknown, version: unknown): ReadableVersion {
  if (format !== BACKUP_FORMAT) {
    const what =
      format === 'pausepoint.audit-log'
        ? 'it is an audit log export, which holds decisions only and cannot be restored'
        : typeof format === 'string'
          ? `its format is "${format.slice(0, 80)}"`
          : 'it has no "format" field';
    throw new BackupError('foreign_format', `This file is not a Pausepoint backup: ${what}. ${NOTHING}`);
  }
  if (typeof version === 'number' && Number.isInteger(version) && version > BACKUP_VERSION) {
    throw new BackupError(
      'future_version',
      `This backup was made by a newer version of Pausepoint (backup version ${version}; this app reads versions up to ${BACKUP_VERSION}). Update Pausepoint, then restore it. ${NOTHING}`,
    );
  }
  const readable = READABLE_VERSIONS.find((known) => known === version);
  if (readable === undefined) {
    throw new BackupError('invalid_file', `This backup has an unknown version (${JSON.stringify(version)?.slice(0, 40)}). ${NOTHING}`);
  }
  return readable;
}

/** The backup's settings, checked against their schema and their endpoint; null when it has none. */
export function checkSettings(stored: unknown): BackupSettings | null {
  if (stored === null || stored === undefined) return null;
  const parsed = BackupSettings.safeParse(stored);
  if (!parsed.success) {
    throw new BackupError('invalid_record', `The settings in this backup are invalid: ${oneLine(parsed.error)}. ${NOTHING}`, {
      table: 'settings',
      cause: parsed.error,
    });
  }
  const problem = settingsEndpointProblem(parsed.data);
  if (problem !== undefined) {
    throw new BackupError('invalid_record', `The settings in this backup cannot be restored: ${problem}. ${NOTHING}`, { table: 'settings' });
  }
  return parsed.data;
}

/** ` (id "…")` when the record has a string id: a refusal names the record a person can find in the file. */
export function idLabel(record: unknown): string {
  const id = isRecord(record) ? record.id : undefined;
  return typeof id === 'string' ? ` (id "${id.slice(0, 80)}")` : '';
}

/** zod's report on one line, the first few issues only: the message is shown to a person. */
export function oneLine(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return issues.join('; ') + more;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
