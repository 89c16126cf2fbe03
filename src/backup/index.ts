export { BACKUP_FORMAT, BACKUP_VERSION, READABLE_VERSIONS, backupFileName, type SkippedRecord } from './backup-format.ts';
export { BackupError, type BackupErrorCode } from './backup-error.ts';
export { createBackup, writeBackup, type Backup, type BackupOptions, type BackupProgress, type BackupSummary } from './create-backup.ts';
export { describeRestore } from './describe-restore.ts';
export { restoreBackup, restoreBackupFile, type RestoreOptions, type RestoreProgress, type RestoreResult } from './restore-backup.ts';
