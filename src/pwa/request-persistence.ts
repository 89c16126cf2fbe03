/**
 * The persistence request every first send makes (App.svelte), apart from
 * the status Settings › Backup shows (storage-persistence.ts), so the page's
 * start carries only this.
 */

/** The part of `StorageManager` used here; each member may be missing. */
export type StorageApi = Partial<Pick<StorageManager, 'persisted' | 'persist' | 'estimate'>>;

export function defaultStorage(): StorageApi | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
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

/** A failing or missing call reads as "unknown": the status is advisory, never a reason to break the page. */
export async function attempt<T>(call: () => Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    console.warn('Storage API call failed:', error);
    return undefined;
  }
}

