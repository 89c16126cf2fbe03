/**
 * MCP App views (issue 36) run in a sandbox proxy page served from an origin
 * other than the app's (`PAUSEPOINT_SANDBOX_ORIGIN` at build, vite.config.ts).
 * The proxy's path on that origin; the file is public/sandbox-proxy.html.
 */
export const SANDBOX_PROXY_PATH = '/sandbox-proxy.html';

/** The configured origin (scheme, host and port only), or null: none, or not an http(s) origin. */
export function sandboxOrigin(configured: string | undefined): string | null {
  if (!configured || !URL.canParse(configured)) return null;
  const url = new URL(configured);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return url.origin;
}

/**
 * Why views cannot be shown here, as Settings says it, or null when they can:
 * without a second origin a view would run on the app's own and could reach
 * its storage, keys and pages, so none is shown at all.
 */
export function viewsUnavailable(appOrigin: string, configured: string | undefined = import.meta.env.PAUSEPOINT_SANDBOX_ORIGIN): string | null {
  const origin = sandboxOrigin(configured);
  if (origin === null) return 'Interactive views are off in this build: it has no sandbox origin (PAUSEPOINT_SANDBOX_ORIGIN), and a view is never run on the app’s own origin.';
  if (origin === appOrigin) return `Interactive views are off: the sandbox origin (${origin}) is this app’s own origin; open the app at its other address or build with a different PAUSEPOINT_SANDBOX_ORIGIN.`;
  return null;
}
