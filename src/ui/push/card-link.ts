/**
 * A push's link (`…/#card=<id>`): the card's id in the fragment, which no
 * server receives. The id is untrusted text: it only ever selects a record.
 */
export function cardLinkId(hash: string): string | undefined {
  const match = /^#card=([^&#]{1,200})$/.exec(hash);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}
