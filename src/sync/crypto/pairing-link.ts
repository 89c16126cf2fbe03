/**
 * The pairing link: the app's own address with the sealed invitation in the
 * fragment, which browsers never send to any server, ours or the sync
 * server. `#pair=` is the only fragment the app reads this way.
 */

/** How long an invitation stays good after `Add a device` showed it. */
export const PAIRING_TTL_MS = 15 * 60_000;

const PAIR_FRAGMENT = /^#?pair=([A-Za-z0-9_-]+)$/;

export function pairingLink(origin: string, blob: string): string {
  return `${origin.replace(/\/+$/, '')}/#pair=${blob}`;
}

/** The blob of a `#pair=…` fragment (`location.hash`, with or without its `#`); undefined for any other fragment. */
export function pairingBlobFrom(hash: string): string | undefined {
  return PAIR_FRAGMENT.exec(hash)?.[1];
}
