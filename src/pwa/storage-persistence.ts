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

/** The part of `StorageManager` used here; each member may be missing. */
export type StorageApi = Partial<Pick<StorageManager, 'persisted' | 'persist' | 'estimate'>>;

function defaultStorage(): StorageApi | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
}

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

/**
 * Asks the browser to keep this site's data. Chromium decides without a prompt
 * (an installed app or a site with engagement is granted); Firefox asks the user,
 * so call this from a click. Resolves to whether storage is now persistent.
 */
export async function requestPersistence(storage: StorageApi | undefined = defaultStorage()): Promise<boolean> {
  if (typeof storage?.persist !== 'function') return false;
  if ((await attempt(() => storage.persisted?.())) === true) return true;
  return (await attempt(() => storage.persist?.())) === true;
}

/** Bytes as megabytes with one decimal, for display. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A failing or missing call reads as "unknown": the status is advisory, never a reason to break the page. */
async function attempt<T>(call: () => Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    console.warn('Storage API call failed:', error);
    return undefined;
  }
}

function finiteOrNull(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
