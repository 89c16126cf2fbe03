import { vi } from 'vitest';

export interface Download {
  blob: Blob;
  name: string;
}

/**
 * Stands in for the browser's download of a blob link: every click on an
 * `<a download>` whose href came from URL.createObjectURL lands in the returned
 * list instead. Call in beforeEach; `vi.restoreAllMocks()` undoes the click spy.
 */
export function captureDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.download) downloads.push({ blob: blobs.get(this.href)!, name: this.download });
  });
  return downloads;
}
