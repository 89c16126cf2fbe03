/**
 * Where the user is, kept in the URL hash so a reload (or a link from a
 * notification) lands on the same view. Ids from the hash are untrusted text:
 * they only ever select records, never build markup.
 */
export type Route =
  | { view: 'new' }
  /** `cardId`: a card to bring into view and focus; `messageId`: a message to (a search's match). */
  | { view: 'conversation'; id: string; cardId?: string; messageId?: string }
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
  const [head = '', id, sub, subId] = parts;
  if (head === 'approvals' || head === 'audit' || head === 'settings') return { view: head };
  if (head === 'c' && id) {
    const conversationId = decode(id);
    if (conversationId) {
      const target = subId ? decode(subId) : null;
      if (sub === 'card' && target) return { view: 'conversation', id: conversationId, cardId: target };
      if (sub === 'message' && target) return { view: 'conversation', id: conversationId, messageId: target };
      return { view: 'conversation', id: conversationId };
    }
  }
  return { view: 'new' };
}

export function routeHref(route: Route): string {
  switch (route.view) {
    case 'new':
      return '#/new';
    case 'conversation':
      if (route.cardId) return `#/c/${encodeURIComponent(route.id)}/card/${encodeURIComponent(route.cardId)}`;
      if (route.messageId) return `#/c/${encodeURIComponent(route.id)}/message/${encodeURIComponent(route.messageId)}`;
      return `#/c/${encodeURIComponent(route.id)}`;
    default:
      return `#/${route.view}`;
  }
}
