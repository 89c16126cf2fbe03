import type { ServerResponse } from 'node:http';

/**
 * Writes server-sent events the way OpenAI does (`data: <json>\n\n`). Each write resolves
 * once the bytes are handed to the socket, so a fault injected after a write (a dropped
 * connection) happens after the client could have received them, not instead of them.
 */
export class SseWriter {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse, headers: Record<string, string> = {}) {
    this.#res = res;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    // Headers go out now, not with the first event, so a slow or hanging stream is
    // observable as "connected, waiting for data".
    res.flushHeaders();
  }

  /** False once the client has gone away; callers stop producing events then. */
  get open(): boolean {
    return !this.#res.destroyed && !this.#res.writableEnded;
  }

  data(payload: unknown): Promise<void> {
    return this.#write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /** The `[DONE]` sentinel and the end of the response. */
  async done(): Promise<void> {
    await this.#write('data: [DONE]\n\n');
    this.#res.end();
  }

  #write(text: string): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve) => {
      // The callback also fires (with an error) when the socket dies; either way the
      // caller should move on, and `open` tells it whether there is any point.
      this.#res.write(text, () => resolve());
    });
  }
}
