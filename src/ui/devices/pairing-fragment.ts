/**
 * A pairing link is `<app origin>/#pair=<blob>`: the fragment never reaches a
 * server, and the blob is encrypted under the pairing code the person types.
 * Read once at start (or when such a link is opened in a running tab) and
 * removed from the address bar at once, so the blob is not kept in the
 * history, a bookmark or a shared screenshot of the address.
 */
const PAIR = /^#pair=([^&#\s]+)$/;

/** The blob of a `#pair=` address, which is then replaced by the bare app address; null for any other address. */
export function takePairingFragment(win: Pick<Window, 'location' | 'history'>): string | null {
  const match = PAIR.exec(win.location.hash);
  if (!match) return null;
  win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}`);
  return match[1] ?? null;
}
