import type { PausePoint } from '../../engine/records/index.ts';

/** The link a card shows, split so the host can be set apart from the rest. */
export interface LinkToOpen {
  href: string;
  /** The scheme and any user part: `https://`, `https://user@`. */
  before: string;
  host: string;
  /** The path, query and fragment. */
  after: string;
}

/**
 * The link on an MCP server's URL-elicitation card (its payload is
 * `{ openUrl }`, written by the MCP hub: src/mcp/server-requests.ts `LinkPayload`), or
 * null for any other card. Checked again here, where it is opened: only an
 * http(s) link is ever a link to open.
 */
export function linkToOpen(pause: PausePoint): LinkToOpen | null {
  if (pause.origin !== 'elicitation' || pause.kind !== 'approval') return null;
  const payload = pause.payload;
  if (typeof payload !== 'object' || payload === null || !('openUrl' in payload) || typeof payload.openUrl !== 'string') return null;
  let url: URL;
  try {
    url = new URL(payload.openUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // scheme://[user[:password]@]host[:port]/…: a user part is percent-encoded, so its `@` is the one that ends it.
  const afterScheme = url.protocol.length + 2;
  const hostStart = url.username || url.password ? url.href.indexOf('@', afterScheme) + 1 : afterScheme;
  const hostEnd = hostStart + url.host.length;
  return { href: url.href, before: url.href.slice(0, hostStart), host: url.href.slice(hostStart, hostEnd), after: url.href.slice(hostEnd) };
}

/** Opens the link in a new tab that gets neither this page (`opener`) nor its address (`Referer`). */
export function openLink(link: LinkToOpen): void {
  window.open(link.href, '_blank', 'noopener,noreferrer');
}
