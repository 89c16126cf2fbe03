/** One file the build lists for the precache (`self.__WB_MANIFEST`): hashed assets carry no revision. */
export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** A static route's rule, as `InstallEvent.addRoutes` takes it (not yet in TypeScript's lib). */
export interface PrecacheRoute {
  condition: { requestMode?: RequestMode; requestMethod?: string; urlPattern: URLPattern };
  source: { cacheName: string };
}

const PREFIX = 'pausepoint-precache-';
// The caches the generated (Workbox) service worker of earlier versions filled.
const OLD_PREFIX = 'workbox-precache-';

/** A short, stable name for this build's file list: a new build gets a new cache, an unchanged one keeps it. */
function cacheName(entries: readonly PrecacheEntry[]): string {
  let hash = 0;
  for (const char of JSON.stringify(entries)) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return `${PREFIX}${(hash >>> 0).toString(36)}`;
}

/**
 * The precache the app opens offline from, as the generated service worker did
 * it: every built file cached at install (bypassing the HTTP cache), served
 * cache-first, with `index.html` for every navigation (the hash holds the
 * route), and older versions' caches removed once this version takes over.
 */
export class Precache {
  readonly #name: string;
  readonly #urls: readonly URL[];
  readonly #index: string;
  readonly #root: string;
  readonly #cached: ReadonlySet<string>;

  constructor(entries: readonly PrecacheEntry[], scope: string) {
    this.#name = cacheName(entries);
    this.#urls = entries.map((entry) => new URL(entry.url, scope));
    this.#index = new URL('index.html', scope).href;
    this.#root = new URL('./', scope).href;
    this.#cached = new Set(this.#urls.map((url) => url.href));
  }

  /** Whether the request is this precache's to answer: one of its files, or a navigation in the app (answered with index.html). */
  handles(request: Request): boolean {
    if (request.method !== 'GET') return false;
    const url = new URL(request.url);
    if (url.origin !== new URL(this.#index).origin) return false;
    return request.mode === 'navigate' || this.#cached.has(this.#key(url));
  }

  #key(url: URL): string {
    const plain = new URL(url.href);
    plain.search = '';
    plain.hash = '';
    return plain.pathname.endsWith('/') ? new URL('index.html', plain).href : plain.href;
  }

  async install(): Promise<void> {
    const cache = await caches.open(this.#name);
    await Promise.all(
      this.#urls.map(async (url) => {
        const fetched = await fetch(new Request(url, { cache: 'reload' }));
        if (!fetched.ok) throw new Error(`Precaching ${url.pathname} failed: ${fetched.status}`);
        const response = asPrecached(fetched);
        // The shell under the scope's own URL too, which is what the app's navigations ask for: the static route looks it up by URL.
        if (url.href === this.#index) await cache.put(this.#root, response.clone());
        await cache.put(url.href, response);
      }),
    );
  }

  /**
   * Static routes (`InstallEvent.addRoutes`, Chromium 123+) that answer the
   * app's own navigations and built assets from this cache without running
   * the service worker at all: no start-up wait after it went idle, no script
   * on the way to the first paint. A miss goes to the network, as `match`
   * would. Other navigations (a query string: the MCP sign-in callback) and
   * everything else still reach the fetch handler.
   */
  routes(): PrecacheRoute[] {
    const source = { cacheName: this.#name };
    const { protocol, hostname, port, pathname } = new URL(this.#root);
    const origin = { protocol: protocol.slice(0, -1), hostname, port };
    return [
      { condition: { requestMode: 'navigate', urlPattern: new URLPattern({ ...origin, pathname, search: '' }) }, source },
      { condition: { requestMethod: 'GET', urlPattern: new URLPattern({ ...origin, pathname: `${pathname}assets/*` }) }, source },
    ];
  }

  async activate(): Promise<void> {
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => (name.startsWith(PREFIX) && name !== this.#name) || name.startsWith(OLD_PREFIX)).map((name) => caches.delete(name)),
    );
  }

  /** The cached answer to a request, or undefined to let it go to the network. */
  async match(request: Request): Promise<Response | undefined> {
    if (!this.handles(request)) return undefined;
    const cache = await caches.open(this.#name);
    const key = this.#key(new URL(request.url));
    // A file of the app first (the probe page is one), then any other navigation gets the shell.
    if (this.#cached.has(key)) return cache.match(key);
    return cache.match(this.#index);
  }
}

/**
 * The response as the precache keeps it:
 * - Without `Vary`. The precache is keyed by URL alone, and a static route's
 *   lookup, unlike `cache.match(url)`, compares the request headers `Vary`
 *   names: a module script's request carries `Origin` (CORS mode), which the
 *   request stored at install never had, so a server's `Vary: Origin` made every
 *   script miss and go to the network (offline: fail).
 * - Fresh for a year (`Cache-Control`), whatever the server said. This copy is
 *   this build's file, replaced only with the build, so no lifetime is wrong
 *   for it; and Chromium keeps V8's compiled code for a module script served
 *   from the Cache API only when its response has a lifetime: with the
 *   `no-cache` servers commonly send (vite preview does), or none, every visit
 *   compiled the app's bundle and its worker from source
 *   (`npm run bench:code-cache`).
 */
function asPrecached(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.delete('Vary');
  headers.set('Cache-Control', PRECACHED_CACHE_CONTROL);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export const PRECACHED_CACHE_CONTROL = 'max-age=31536000, immutable';
