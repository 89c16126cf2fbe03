import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

/** One publish as the fake received it: the parsed fields, and the raw request for grepping. */
export interface NtfyPublish {
  at: number;
  topic: string;
  message: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  /** The `Authorization` header as sent ('' for none). */
  authorization: string;
  /** `json`: POST to the root with a JSON body; `headers`: POST/PUT to `/<topic>` with Title, Priority, Tags, Click headers. */
  form: 'json' | 'headers';
  raw: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };
}

export interface FakeNtfyOptions {
  port?: number;
  /**
   * Access tokens and the topics each may publish to. Absent: anyone may
   * publish anywhere (ntfy.sh's default). Present: a request without a token
   * gets 401 (ntfy's `auth-default-access: deny-all`), an unknown token 401,
   * a known one on another topic 403.
   */
  tokens?: Record<string, readonly string[]>;
}

export interface FakeNtfy {
  readonly url: string;
  readonly published: readonly NtfyPublish[];
  /** Resolves once `count` publishes have arrived (any topic), with them. */
  waitForPublishes(count: number, timeoutMs?: number): Promise<NtfyPublish[]>;
  /** The next `count` requests (publishes and auth checks) answer `status` with ntfy's error shape. */
  failNext(status: 401 | 403 | 429 | 500 | 502 | 503, count?: number): void;
  close(): Promise<void>;
}

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const ERRORS: Record<number, [number, string]> = {
  400: [40000, 'invalid request'],
  401: [40101, 'unauthorized'],
  403: [40301, 'forbidden'],
  404: [40401, 'page not found'],
  429: [42901, 'limit reached: too many requests'],
  500: [50001, 'internal server error'],
  502: [50201, 'bad gateway'],
  503: [50301, 'service unavailable'],
};

/**
 * A loopback stand-in for an ntfy server's publish API (README.md): there is
 * no ntfy server in Debian's archive or on npm for the tests to run.
 */
export async function startFakeNtfy(options: FakeNtfyOptions = {}): Promise<FakeNtfy> {
  const published: NtfyPublish[] = [];
  const waiters = new Set<() => void>();
  const failures: { status: number; remaining: number }[] = [];
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('fake-ntfy: handler failed', error);
      if (!res.headersSent) fail(res, 500);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // As ntfy answers every origin (its default `access-control-allow-origin: *`).
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('access-control-allow-methods', 'GET, PUT, POST, PATCH, DELETE');
      res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
      if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('access-control-allow-private-network', 'true');
      res.writeHead(200);
      res.end();
      return;
    }
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake-ntfy');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/v1/health') return json(res, 200, { healthy: true });

    const failure = failures[0];
    if (failure) {
      if (--failure.remaining <= 0) failures.shift();
      return fail(res, failure.status);
    }

    const authMatch = /^\/([^/]+)\/auth$/.exec(path);
    if (req.method === 'GET' && authMatch) {
      const denied = refusal(authorization(req), decodeURIComponent(authMatch[1]!));
      return denied ? fail(res, denied) : json(res, 200, { success: true });
    }
    if (req.method !== 'POST' && req.method !== 'PUT') return fail(res, 404);

    let fields: Omit<NtfyPublish, 'at' | 'authorization' | 'raw' | 'form'>;
    let form: NtfyPublish['form'];
    if (path === '/') {
      // ntfy's JSON publishing: the root URL, the topic inside the body.
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return fail(res, 400);
      }
      if (!isRecord(parsed) || typeof parsed.topic !== 'string') return fail(res, 400);
      form = 'json';
      fields = {
        topic: parsed.topic,
        message: typeof parsed.message === 'string' ? parsed.message : 'triggered',
        ...(typeof parsed.title === 'string' ? { title: parsed.title } : {}),
        ...(typeof parsed.priority === 'number' ? { priority: parsed.priority } : {}),
        ...(Array.isArray(parsed.tags) ? { tags: parsed.tags.filter((t): t is string => typeof t === 'string') } : {}),
        ...(typeof parsed.click === 'string' ? { click: parsed.click } : {}),
      };
    } else {
      form = 'headers';
      const title = header(req, 'x-title', 'title', 't');
      const priority = header(req, 'x-priority', 'priority', 'prio', 'p');
      const tags = header(req, 'x-tags', 'tags', 'tag', 'ta');
      const click = header(req, 'x-click', 'click');
      fields = {
        topic: decodeURIComponent(path.slice(1)),
        message: body === '' ? 'triggered' : body,
        ...(title ? { title } : {}),
        ...(priority ? { priority: priorityNumber(priority) } : {}),
        ...(tags ? { tags: tags.split(',').map((t) => t.trim()) } : {}),
        ...(click ? { click } : {}),
      };
    }
    if (!TOPIC.test(fields.topic)) return fail(res, 400);
    if (fields.priority !== undefined && !(fields.priority >= 1 && fields.priority <= 5)) return fail(res, 400);
    const denied = refusal(authorization(req), fields.topic);
    if (denied) return fail(res, denied);
    published.push({
      at: Date.now(),
      ...fields,
      authorization: authorization(req),
      form,
      raw: { method: req.method, url: req.url ?? '/', headers: { ...req.headers }, body },
    });
    for (const wake of waiters) wake();
    const time = Math.floor(Date.now() / 1000);
    json(res, 200, { id: randomBytes(6).toString('hex'), time, expires: time + 43_200, event: 'message', ...fields });
  }

  function refusal(auth: string, topic: string): 401 | 403 | null {
    if (!options.tokens) return null;
    const token = /^Bearer (.+)$/.exec(auth)?.[1];
    const topics = token === undefined ? undefined : Object.hasOwn(options.tokens, token) ? options.tokens[token] : undefined;
    if (!topics) return 401;
    return topics.includes(topic) ? null : 403;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-ntfy: no TCP address');
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get published() {
      return [...published];
    },
    waitForPublishes(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (published.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(published.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fake-ntfy: ${published.length} of ${count} publishes after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    failNext(status, count = 1) {
      failures.push({ status, remaining: count });
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function fail(res: ServerResponse, status: number): void {
  const [code, error] = ERRORS[status] ?? [status * 100, 'error'];
  json(res, status, { code, http: status, error, link: 'https://ntfy.sh/docs/publish/' });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(value)}\n`);
}

function authorization(req: IncomingMessage): string {
  return req.headers.authorization ?? '';
}

function header(req: IncomingMessage, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = req.headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** ntfy takes 1–5 or their names. */
function priorityNumber(value: string): number {
  const named: Record<string, number> = { min: 1, low: 2, default: 3, high: 4, max: 5, urgent: 5 };
  return Object.hasOwn(named, value) ? named[value]! : Number(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
