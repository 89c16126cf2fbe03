/** A message from a view is at most this many characters of JSON (1 MB): a larger one is dropped unread. */
export const MAX_VIEW_MESSAGE_CHARS = 1_000_000;

/**
 * What a view (through its sandbox proxy) may send: the Apps handshake, size
 * changes, its log lines, and the requests the host answers — a `tools/call`
 * (through the engine, like the model's), `ui/message`, `ui/open-link`.
 * Everything else is refused before the bridge sees it.
 */
export const VIEW_METHODS: ReadonlySet<string> = new Set([
  'ui/notifications/sandbox-proxy-ready',
  'ui/initialize',
  'ui/notifications/initialized',
  'ui/notifications/size-changed',
  'ui/notifications/request-teardown',
  'notifications/message',
  'ping',
  'tools/call',
  'ui/message',
  'ui/open-link',
]);

export type ViewMessageCheck =
  | { accept: true; message: Record<string, unknown> }
  /** `reply`: the JSON-RPC error to answer a refused request with (a notification or a stranger's message gets none). */
  | { accept: false; reason: string; reply?: { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } };

/** The parts of a MessageEvent the check reads (a test makes them without a window). */
export interface ViewMessageEvent {
  source: unknown;
  origin: string;
  data: unknown;
}

/**
 * Whether a `message` event is one to hand to the view's bridge: it comes
 * from the sandbox proxy's window (the outer frame this view owns, not
 * another view's nor any other window) and from the sandbox origin, it is
 * JSON-RPC 2.0 within the size bound, and a request or notification names a
 * method the host answers (a response to the host's own request has none).
 */
export function checkViewMessage(event: ViewMessageEvent, expected: { source: unknown; origin: string }): ViewMessageCheck {
  if (event.source === null || event.source !== expected.source) return { accept: false, reason: 'not from this view’s frame' };
  if (event.origin !== expected.origin) return { accept: false, reason: `from ${event.origin}, not the sandbox origin` };
  let size: number;
  try {
    size = JSON.stringify(event.data)?.length ?? 0;
  } catch {
    return { accept: false, reason: 'not JSON' };
  }
  if (size > MAX_VIEW_MESSAGE_CHARS) return { accept: false, reason: `larger than ${MAX_VIEW_MESSAGE_CHARS} characters` };
  const data = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || (data as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return { accept: false, reason: 'not a JSON-RPC 2.0 message' };
  }
  const message = data as Record<string, unknown>;
  const id = message.id;
  const hasId = typeof id === 'string' || typeof id === 'number';
  if (!('method' in message)) {
    return hasId && ('result' in message || 'error' in message) ? { accept: true, message } : { accept: false, reason: 'neither a request, a notification nor a response' };
  }
  if (typeof message.method !== 'string' || !VIEW_METHODS.has(message.method)) {
    const method = typeof message.method === 'string' ? message.method.slice(0, 100) : 'a method that is not a string';
    const reason = `Pausepoint does not answer ${method} from a view.`;
    return hasId ? { accept: false, reason, reply: { jsonrpc: '2.0', id: id as string | number, error: { code: -32601, message: reason } } } : { accept: false, reason };
  }
  return { accept: true, message };
}
