import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolView } from '../../engine/records/index.ts';
import type { ViewResource } from '../../mcp/ui-resource.ts';
import type { ViewToolCall, ViewToolCallAnswer } from '../../mcp/view-tool-call.ts';
import { GuardedTransport } from './guarded-transport.ts';
import { viewDocument } from './view-document.ts';

/** A view asks for a height between these (pixels): a view cannot take over the conversation, nor vanish. */
export const MIN_VIEW_HEIGHT = 60;
export const MAX_VIEW_HEIGHT = 800;

/** What hosting one view needs from the app (the component passes them; a test could pass its own). */
export interface ViewHostDeps {
  /** The view's HTML and declared CSP, read by the worker from the server (resources/read of exactly view.resourceUri). */
  readView(serverId: string, resourceUri: string): Promise<ViewResource>;
  /** A `tools/call` the view sent, put through the engine like the model's (the gate's; absent: refused). */
  callToolFromView?(input: ViewToolCall): Promise<ViewToolCallAnswer>;
  /** `ui/message`: the view's words proposed to the person (never sent by the view). */
  message(content: readonly { type: string; text?: unknown }[]): Promise<{ isError?: boolean }>;
  /** `ui/open-link`: opened only after the person confirms the URL. */
  openLink(url: string): Promise<{ isError?: boolean }>;
}

export interface HostedView {
  /** Ends the bridge (the frame is the component's). */
  close(): Promise<void>;
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Hosts one call's view: listens for its sandbox proxy (the outer frame, on
 * the sandbox origin) through a GuardedTransport, then calls `load` to point
 * the frame at the proxy. When the proxy is ready it gets the view's
 * document (the HTML with its declared policy at its head, view-document.ts);
 * when the view has initialised it gets the call's arguments and result as
 * stored (`view`), so a reload renders the same view again.
 *
 * What the view may ask goes through the app: its tool calls to
 * `callToolFromView` (for this call row's server only; the engine decides),
 * messages and links to the person. It has no MCP client of its own.
 */
export async function hostView(options: {
  frame: HTMLIFrameElement;
  sandboxOrigin: string;
  view: ToolView;
  conversationId: string;
  callId: string;
  deps: ViewHostDeps;
  /** Points the frame at the proxy, once its messages will be heard. */
  load: () => void;
  onHeight: (height: number) => void;
  onPainted: () => void;
  onError: (message: string) => void;
}): Promise<HostedView> {
  const { frame, sandboxOrigin, view, conversationId, callId, deps } = options;
  const resource = deps.readView(view.serverId, view.resourceUri);
  // Caught here too: a failure is reported once the proxy is ready, and must not be an unhandled rejection before.
  resource.catch(() => undefined);
  const bridge = new AppBridge(
    null,
    { name: 'pausepoint', version: '0.1.0' },
    { serverTools: {}, openLinks: {}, message: { text: {} }, logging: {} },
    { hostContext: { theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light', displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web', locale: navigator.language } },
  );
  let ready = false;
  bridge.addEventListener('sandboxready', () => {
    // Once: a second "ready" (a view cannot send one, the proxy drops it) would load nothing new.
    if (ready) return;
    ready = true;
    resource.then(
      (read) => bridge.sendSandboxResourceReady({ html: viewDocument(read.html, read.csp), sandbox: 'allow-scripts', csp: read.csp }),
      (error: unknown) => options.onError(`The view could not be read from the server: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  bridge.addEventListener('initialized', () => {
    void (async () => {
      await bridge.sendToolInput({ arguments: JSON.parse(view.input) as Record<string, unknown> });
      await bridge.sendToolResult(JSON.parse(view.result) as CallToolResult);
      options.onPainted();
    })().catch((error: unknown) => options.onError(`The view could not be given its result: ${error instanceof Error ? error.message : String(error)}`));
  });
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.onHeight(Math.min(MAX_VIEW_HEIGHT, Math.max(MIN_VIEW_HEIGHT, Math.ceil(height))));
  });
  bridge.oncalltool = async (params) => {
    if (!deps.callToolFromView) return refusal('Not run: this Pausepoint cannot put a view’s tool calls through its approvals.');
    const answer = await deps.callToolFromView({ conversationId, viewCallId: callId, serverId: view.serverId, name: params.name, arguments: params.arguments ?? {} });
    if (answer.outcome === 'ran') return answer.result;
    return refusal(answer.outcome === 'declined' ? `Declined: ${answer.reason}` : `Refused: ${answer.reason}`);
  };
  bridge.onmessage = async (params) => deps.message(params.content as { type: string; text?: unknown }[]);
  bridge.onopenlink = async (params) => deps.openLink(params.url);

  const target = frame.contentWindow;
  if (!target) throw new Error('The view’s frame has no window.');
  const transport = new GuardedTransport(target, sandboxOrigin, (reason) => console.warn(`Pausepoint: a message from a view was refused (${reason}).`));
  await bridge.connect(transport);
  options.load();
  return { close: () => bridge.close() };
}
