/**
 * pdf.js's parser as a module worker. The `new Worker(new URL(…))` form lets Vite bundle it as a
 * hashed same-origin .js chunk, which the CSP (worker-src 'self') allows and the service worker precaches.
 */
export const startPdfWorker = (): Worker =>
  new Worker(new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url), { type: 'module', name: 'pdf.js' });
