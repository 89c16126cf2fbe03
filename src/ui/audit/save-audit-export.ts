import type { AuditFilters } from '../../audit/audit-filters.ts';
import { exportAuditLog, type ExportProgress, type ExportResult } from '../../audit/export-audit-log.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { downloadFile } from '../backup/download-file.ts';

/** `pausepoint-audit-2025-06-01.json`, by the local date. */
export function auditFileName(now: Date = new Date()): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `pausepoint-audit-${day}.json`;
}

interface SaveFilePickerWindow {
  showSaveFilePicker?: (options: {
    suggestedName: string;
    types: { description: string; accept: Record<string, string[]> }[];
  }) => Promise<{ createWritable(): Promise<WritableStream<string>> }>;
}

/** Whether the browser can stream the export straight into a file the user picks (Chromium). */
export function canPickSaveFile(win: object = window): boolean {
  return typeof (win as SaveFilePickerWindow).showSaveFilePicker === 'function';
}

export interface SaveOptions {
  onProgress: (progress: ExportProgress) => void;
  signal: AbortSignal;
}

/**
 * Exports into Blob parts and downloads them. Each chunk becomes its own small
 * Blob as it arrives, so the browser can keep the data outside the JavaScript
 * heap; the file Blob is made of those parts, never of one giant string.
 */
export async function exportToDownload(db: PausepointDb, filters: AuditFilters, fileName: string, { onProgress, signal }: SaveOptions): Promise<ExportResult> {
  const parts: Blob[] = [];
  const result = await exportAuditLog(db, filters, (chunk) => void parts.push(new Blob([chunk])), onProgress, { signal });
  downloadFile(new Blob(parts, { type: 'application/json' }), fileName);
  return result;
}

/**
 * Asks where to save, then streams the export into that file. Must be called
 * straight from the click (the picker needs the user's gesture). Resolves to
 * null when the user cancels the picker.
 */
export async function exportToPickedFile(db: PausepointDb, filters: AuditFilters, fileName: string, { onProgress, signal }: SaveOptions): Promise<ExportResult | null> {
  const picker = (window as SaveFilePickerWindow).showSaveFilePicker;
  if (!picker) throw new Error('This browser cannot save straight to a file.');
  let handle;
  try {
    handle = await picker({ suggestedName: fileName, types: [{ description: 'Pausepoint audit log', accept: { 'application/json': ['.json'] } }] });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
  return exportAuditLog(db, filters, await handle.createWritable(), onProgress, { signal });
}
