import { describe, expect, it, vi } from 'vitest';
import { formatMegabytes, requestPersistence, storageStatus, type StorageApi } from './storage-persistence.ts';

function storage(over: StorageApi = {}): StorageApi {
  return {
    persisted: vi.fn(async () => false),
    persist: vi.fn(async () => true),
    estimate: vi.fn(async () => ({ usage: 12_345_678, quota: 2_000_000_000 })),
    ...over,
  };
}

describe('storageStatus', () => {
  it('reports persistence, usage and quota', async () => {
    expect(await storageStatus(storage())).toEqual({ supported: true, persisted: false, usage: 12_345_678, quota: 2_000_000_000 });
    expect(await storageStatus(storage({ persisted: async () => true }))).toMatchObject({ persisted: true });
  });

  it('tolerates a missing API', async () => {
    expect(await storageStatus(undefined)).toEqual({ supported: false, persisted: false, usage: null, quota: null });
    expect(await storageStatus({ estimate: async () => ({ usage: 10 }) })).toEqual({ supported: false, persisted: false, usage: 10, quota: null });
  });

  it('tolerates failing calls', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = storage({ persisted: async () => Promise.reject(new Error('blocked')), estimate: async () => Promise.reject(new Error('blocked')) });
    expect(await storageStatus(failing)).toEqual({ supported: true, persisted: false, usage: null, quota: null });
    warn.mockRestore();
  });
});

describe('requestPersistence', () => {
  it('asks the browser and reports its answer', async () => {
    const api = storage();
    expect(await requestPersistence(api)).toBe(true);
    expect(api.persist).toHaveBeenCalledOnce();
    expect(await requestPersistence(storage({ persist: async () => false }))).toBe(false);
  });

  it('does not ask again when already persistent', async () => {
    const api = storage({ persisted: vi.fn(async () => true) });
    expect(await requestPersistence(api)).toBe(true);
    expect(api.persist).not.toHaveBeenCalled();
  });

  it('tolerates a missing API', async () => {
    expect(await requestPersistence(undefined)).toBe(false);
    expect(await requestPersistence({})).toBe(false);
  });

  it('uses navigator.storage by default', async () => {
    const api = storage();
    vi.stubGlobal('navigator', { storage: api });
    try {
      expect(await storageStatus()).toMatchObject({ supported: true, usage: 12_345_678 });
      expect(await requestPersistence()).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('formatMegabytes', () => {
  it('shows one decimal', () => {
    expect(formatMegabytes(12_345_678)).toBe('12.3 MB');
    expect(formatMegabytes(0)).toBe('0.0 MB');
  });
});
