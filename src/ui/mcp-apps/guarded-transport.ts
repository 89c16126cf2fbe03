import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { checkViewMessage } from './view-message-check.ts';

/**
 * The bridge's side of one view's frame: a postMessage transport (as
 * ext-apps' PostMessageTransport) that reads only what `checkViewMessage`
 * accepts — this frame's window, the sandbox origin, bounded, known methods
 * (a refused request is answered with an error, nothing else is) — and
 * posts only to that window at that origin, never to '*'.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #listener = (event: MessageEvent) => this.#receive(event);

  constructor(
    private readonly frame: Window,
    private readonly origin: string,
    private readonly refused: (reason: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    window.addEventListener('message', this.#listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.frame.postMessage(message, this.origin);
  }

  async close(): Promise<void> {
    window.removeEventListener('message', this.#listener);
    this.onclose?.();
  }

  #receive(event: MessageEvent): void {
    // Another window's messages (another view, the app's own) are not ours to judge.
    if (event.source !== this.frame) return;
    const check = checkViewMessage(event, { source: this.frame, origin: this.origin });
    if (check.accept) {
      this.onmessage?.(check.message as JSONRPCMessage);
      return;
    }
    this.refused(check.reason);
    if (check.reply) this.frame.postMessage(check.reply, this.origin);
  }
}
