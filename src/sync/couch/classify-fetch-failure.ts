/** Long enough for a slow server's first byte, short enough for a status line that is waiting on it. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Why a fetch to the sync server rejected. A browser rejects with the same
 * TypeError whether nothing answered (down, wrong address, offline) or the
 * server answered without allowing this page's origin (CORS), and hides which
 * on purpose. A `no-cors` request is not subject to CORS: it resolves with an
 * opaque response whenever the server answers at all. So if it resolves, the
 * server is up and refused the origin; if it rejects too, nothing answered.
 *
 * The probe carries no credentials and no Authorization header (no-cors
 * allows neither), so following a redirect, which no-cors requires, reveals
 * nothing but the URL. `url` is the server's root, which CouchDB answers
 * even to anonymous requests.
 */
export async function classifyFetchFailure(url: string, fetchImpl: typeof fetch): Promise<'cors' | 'unreachable'> {
  try {
    await fetchImpl(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return 'cors';
  } catch {
    // The probe failing is the answer, not an error to report: nothing answered.
    return 'unreachable';
  }
}
