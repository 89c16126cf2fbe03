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
