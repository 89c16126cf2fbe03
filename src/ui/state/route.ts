/**
 * Where the user is, kept in the URL hash so a reload (or a link from a
 * notification) lands on the same view. Ids from the hash are untrusted text:
 * they only ever select records, never build markup.
 */
export type Route =
  | { view: 'new' }
  | { view: 'conversation'; id: string; cardId?: string }
  | { view: 'approvals' }
  | { view: 'audit' }
  | { view: 'settings' };

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [head = '', id, sub, cardId] = parts;
  if (head === 'approvals' || head === 'audit' || head === 'settings') return { view: head };
  if (head === 'c' && id) {
    const conversationId = decode(id);
    if (conversationId) {
      const card = sub === 'card' && cardId ? decode(cardId) : null;
      return card ? { view: 'conversation', id: conversationId, cardId: card } : { view: 'conversation', id: conversationId };
    }
  }
  return { view: 'new' };
}

export function routeHref(route: Route): string {
  switch (route.view) {
    case 'new':
      return '#/new';
    case 'conversation':
      return route.cardId
        ? `#/c/${encodeURIComponent(route.id)}/card/${encodeURIComponent(route.cardId)}`
        : `#/c/${encodeURIComponent(route.id)}`;
    default:
      return `#/${route.view}`;
  }
}
