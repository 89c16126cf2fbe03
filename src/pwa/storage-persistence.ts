/**
 * Whether the browser may evict this site's data under storage pressure, and how
 * much space it uses. Browsers without the Storage API (or contexts that hide it,
 * like some private modes and insecure origins) read as "not persisted, sizes
 * unknown", never as an error: the UI then nudges towards a backup.
 */
export interface StorageStatus {
  /** Whether the storage API exists here at all. */
  supported: boolean;
  /** True when the browser promised not to evict this site's data. */
  persisted: boolean;
  /** Bytes used by this site, when the browser says. */
  usage: number | null;
  /** Bytes this site may use in total, when the browser says. */
  quota: number | null;
}

import { attempt, defaultStorage, type StorageApi } from './request-persistence.ts';

export { requestPersistence, type StorageApi } from './request-persistence.ts';

export async function storageStatus(storage: StorageApi | undefined = defaultStorage()): Promise<StorageStatus> {
  const [persisted, estimate] = await Promise.all([
    attempt(() => storage?.persisted?.()),
    attempt(() => storage?.estimate?.()),
  ]);
  return {
    supported: typeof storage?.persisted === 'function',
    persisted: persisted === true,
    usage: finiteOrNull(estimate?.usage),
    quota: finiteOrNull(estimate?.quota),
  };
}

/** Bytes as megabytes with one decimal, for display. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function finiteOrNull(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
