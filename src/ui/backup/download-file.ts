/**
 * Saves a Blob as a download with the given name. The object URL is released a
 * little later, not at once: some browsers start reading it only after `click()`
 * returns, and revoking it first cancels the download.
 */
export function downloadFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
