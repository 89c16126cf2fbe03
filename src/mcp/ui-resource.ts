import { z } from 'zod';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, issue 36): a tool may
 * name a `ui://` HTML resource its view is rendered from. Groundwork only:
 * nothing renders it yet, and the listing's definitions (what pins hash) do
 * not carry `_meta`, so no pin changes for it.
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The resource type a view is served as. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

const UiUri = z
  .string()
  .max(2048)
  .refine((value) => value.startsWith('ui://') && URL.canParse(value), 'a view is a ui:// resource');

const ToolMeta = z.object({
  ui: z.object({ resourceUri: z.unknown().optional() }).loose().optional(),
  /** The form before SEP-1865 settled on `ui.resourceUri`. */
  'ui/resourceUri': z.unknown().optional(),
});

/**
 * The `ui://` resource a tool's `_meta` declares for its view (`ui.resourceUri`,
 * else the deprecated flat `ui/resourceUri`), or null: none declared, or one
 * that is not a `ui://` URI (a view is read only from the server's own
 * resources, never from a web address).
 */
export function uiResourceUri(meta: unknown): string | null {
  const parsed = ToolMeta.safeParse(meta);
  if (!parsed.success) return null;
  const declared = parsed.data.ui?.resourceUri ?? parsed.data['ui/resourceUri'];
  const uri = UiUri.safeParse(declared);
  return uri.success ? uri.data : null;
}

/** A view's HTML is at most this many characters (about 2 MB): a larger one is not shown. */
export const MAX_VIEW_HTML = 2_000_000;

const Domains = z.array(z.string().max(300)).max(50).optional();

/** What a view's resource declares of its needs (`_meta.ui.csp`); the host allows these and nothing wider. */
export const ViewCsp = z.object({
  connectDomains: Domains,
  resourceDomains: Domains,
  frameDomains: Domains,
  baseUriDomains: Domains,
});
export type ViewCsp = z.infer<typeof ViewCsp>;

/** A view as the worker hands it to the page: its HTML and the policy it declared. */
export const ViewResource = z.object({
  html: z.string().max(MAX_VIEW_HTML),
  csp: ViewCsp,
  prefersBorder: z.boolean().optional(),
});
export type ViewResource = z.infer<typeof ViewResource>;

const Content = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
  _meta: z.object({ ui: z.object({ csp: z.unknown().optional(), prefersBorder: z.unknown().optional() }).loose().optional() }).loose().optional(),
});

/**
 * The view in a `resources/read` answer for `uri`: the content of exactly
 * that URI served as `text/html;profile=mcp-app` (text, or base64 `blob`).
 * A declared CSP that does not parse counts as none declared (the strictest).
 * Throws when the answer holds no such view.
 */
export function viewResource(result: unknown, uri: string): ViewResource {
  const contents = z.object({ contents: z.array(z.unknown()).max(100) }).safeParse(result);
  const content = (contents.success ? contents.data.contents : [])
    .map((c) => Content.safeParse(c))
    .flatMap((c) => (c.success ? [c.data] : []))
    .find((c) => c.uri === uri && c.mimeType?.replaceAll(' ', '').toLowerCase() === MCP_APP_MIME_TYPE);
  if (!content) throw new Error(`The server did not answer ${uri} with a view (${MCP_APP_MIME_TYPE}).`);
  const html = content.text ?? (content.blob === undefined ? undefined : new TextDecoder().decode(Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0))));
  if (html === undefined) throw new Error(`The view ${uri} came without its HTML.`);
  if (html.length > MAX_VIEW_HTML) throw new Error(`The view ${uri} is larger than ${MAX_VIEW_HTML} characters and is not shown.`);
  const csp = ViewCsp.safeParse(content._meta?.ui?.csp ?? {});
  const prefersBorder = content._meta?.ui?.prefersBorder;
  return { html, csp: csp.success ? csp.data : {}, ...(typeof prefersBorder === 'boolean' ? { prefersBorder } : {}) };
}
