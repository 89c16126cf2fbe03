import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleRequest } from './handle-request.ts';
import type { RecordedChatRequest, RecordedRequest } from './recorded-request.ts';
import type { Reply } from './reply.ts';
import { ReplyScript, type ReplyRule } from './reply-script.ts';
import { RequestLog } from './request-log.ts';
import type { ServerState } from './server-state.ts';

export interface FakeLlmOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only, on purpose: the fake accepts any request and must not be reachable from the network. */
  host?: '127.0.0.1';
  /** Ids listed by GET /v1/models. */
  models?: string[];
  /** When set, /v1/* answers 401 unless `authorization: Bearer <requireKey>`. */
  requireKey?: string;
  /**
   * Answer 400 to any chat request that carries `stream_options`, as some
   * compatible servers do with fields they do not know.
   */
  refuseStreamOptions?: boolean;
}

export interface FakeLlm {
  /** What the OpenAI SDK gets as `baseURL`, e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  /** http://127.0.0.1:PORT — for the sink and control URLs. */
  readonly origin: string;
  /** Every request received except /_control/*, in order. A fresh copy on each read. */
  readonly requests: RecordedRequest[];
  /** Queued replies not used yet. */
  readonly pendingReplies: number;
  /** Adds replies to the FIFO queue that chat requests consume first. */
  enqueue(...replies: Reply[]): void;
  /** Adds a rule, consulted in order of adding when the queue is empty. */
  onRequest(rule: ReplyRule): void;
  chatRequests(): RecordedChatRequest[];
  waitForChatRequests(count: number, timeoutMs?: number): Promise<RecordedChatRequest[]>;
  /** Requests to /sink/*, or to one sink path ('/sink/x' or just 'x'). */
  sinkHits(path?: string): RecordedRequest[];
  /** Clears the queue, the rules and the logs. */
  reset(): void;
  /** Stops the server, cutting hanging and streaming responses; safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['fake-model', 'fake-model-mini'];

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const host = options.host ?? '127.0.0.1';
  const closing = new AbortController();
  const state: ServerState = {
    log: new RequestLog(),
    script: new ReplyScript(),
    models: [...(options.models ?? DEFAULT_MODELS)],
    requireKey: options.requireKey,
    refuseStreamOptions: options.refuseStreamOptions ?? false,
    closing: closing.signal,
  };

  // The clock is read first thing in the `request` event: the moment the head had arrived.
  const server = createServer((req, res) => void respond(state, req, res, performance.timeOrigin + performance.now()));
  // Tracked so close() can destroy them: server.close() alone waits for hanging
  // replies and idle keep-alive connections, and a test's afterEach would hang.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-llm: server has no TCP address');
  const origin = `http://${host}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    get requests() {
      return state.log.all;
    },
    get pendingReplies() {
      return state.script.pending;
    },
    enqueue: (...replies) => state.script.enqueue(replies),
    onRequest: (rule) => state.script.addRule(rule),
    chatRequests: () => state.log.chat,
    waitForChatRequests: (count, timeoutMs = 10_000) => state.log.waitForChat(count, timeoutMs),
    sinkHits: (path) => {
      const wanted = path === undefined ? undefined : sinkPath(path);
      return state.log.all.filter((r) => (wanted === undefined ? r.path.startsWith('/sink/') : r.path === wanted));
    },
    reset: () => {
      state.script.clear();
      state.log.clear();
    },
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        state.log.rejectWaiters('fake-llm: closed');
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

function sinkPath(path: string): string {
  const bare = path.replace(/^\/+/, '');
  return bare.startsWith('sink/') ? `/${bare}` : `/sink/${bare}`;
}

/** Turns a handler failure (a rule that threw, say) into a loud 500 instead of a hung request. */
async function respond(state: ServerState, req: IncomingMessage, res: ServerResponse, receivedAt: number): Promise<void> {
  try {
    await handleRequest(state, req, res, receivedAt);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error('fake-llm: handler failed', error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
    res.end(JSON.stringify({ error: { message: `fake-llm: ${message}`, type: 'fake_llm_internal', param: null, code: null } }));
  }
}
