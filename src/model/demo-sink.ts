/**
 * The demo's side effects land here: a pretend server at the demo's own
 * reserved host (DEMO_BASE_URL's; `.invalid` never resolves, RFC 2606), answered inside this
 * thread. So when the demo asks to POST and the user approves, the request is
 * real as far as the tool, the ledger and the card are concerned, yet nothing
 * leaves the browser — and the answer shows exactly what landed.
 */
export const DEMO_SINK_ORIGIN = 'https://demo.pausepoint.invalid';
export const DEMO_SINK_URL = `${DEMO_SINK_ORIGIN}/sink/`;

/** The sink's answer: what it received, echoed back so the demo can show it. */
export interface DemoSinkReceipt {
  landed: 'in the demo sink, inside Pausepoint: nothing left this browser';
  method: string;
  path: string;
  contentType: string | null;
  body: unknown;
}

/**
 * `next`, except that every request to the demo's host is answered here and
 * never reaches `next`: `/sink/…` with a receipt, anything else with a 404.
 */
export function withDemoSink(next: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== DEMO_SINK_ORIGIN) return next(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    if (!url.pathname.startsWith('/sink/')) return json(404, { error: `The demo has nothing at ${url.pathname}.` });
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const receipt: DemoSinkReceipt = {
      landed: 'in the demo sink, inside Pausepoint: nothing left this browser',
      method: request.method,
      path: url.pathname + url.search,
      contentType: request.headers.get('content-type'),
      body: parsed(text),
    };
    return json(200, receipt);
  };
}

/** JSON bodies are shown as the values they hold, anything else as its text. */
function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
