// pdf.js 6 wants Node 22.13 or later; this machine (and CI) has Node 20, which lacks only Promise.withResolvers
// that pdf.js uses. Browsers have it (Chromium 119, Firefox 121, Safari 17.4). Test-only: the app ships no polyfill.
Promise.withResolvers ??= <T>() => {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};
