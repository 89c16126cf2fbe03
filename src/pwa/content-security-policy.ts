/**
 * The Content-Security-Policy the app runs under, as index.html's meta tag
 * carries it (a test keeps the two equal) and, with `frame-ancestors`, which a
 * meta tag cannot carry, as the header `vite preview` sends.
 *
 * - Scripts only from the app's own files: no inline script, no inline event
 *   handler, no eval. Model output is sanitised before it reaches the DOM; this
 *   is the second wall, should a way round the sanitiser ever be found.
 * - Styles only from the app's own files: Svelte's styles are built into CSS
 *   files, and no component sets a style attribute.
 * - Images from the app and from data:/blob: URLs only; markdown images are
 *   rendered as links, so a model cannot make the page load a tracking pixel.
 * - `connect-src *`: the endpoint and the http_request tool's targets are the
 *   user's choice, any host; what may be sent where is decided by the settings
 *   schema (the key only to its own origin, plain http only to this computer)
 *   and by approval cards, not by this policy.
 * - Nothing else: no plugins, forms that post, or `<base>` rewriting, and no
 *   frames but one: with a sandbox origin configured (PAUSEPOINT_SANDBOX_ORIGIN,
 *   src/mcp/sandbox-origin.ts), `frame-src` that origin and nothing else, where
 *   MCP App views run in their sandbox proxy (issue 36).
 */
const DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'connect-src *',
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** The policy of the meta tag in index.html. */
export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/** The policy of a build whose MCP App views run on `sandboxOrigin` (none: the policy above, no frames at all). */
export function contentSecurityPolicy(sandboxOrigin: string | null): string {
  return sandboxOrigin ? `${CONTENT_SECURITY_POLICY}; frame-src ${sandboxOrigin}` : CONTENT_SECURITY_POLICY;
}

/** The headers of every file (SECURITY_HEADERS) for a build whose views run on `sandboxOrigin`. */
export function securityHeaders(sandboxOrigin: string | null): Readonly<Record<string, string>> {
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': `${contentSecurityPolicy(sandboxOrigin)}; frame-ancestors 'none'` };
}

/**
 * The sandbox proxy page's own headers (public/sandbox-proxy.html, served on
 * the sandbox origin): no policy of its own, because the view's document is
 * its `srcdoc` child and would inherit it — the view's declared policy is put
 * into that document instead (src/ui/mcp-apps/view-document.ts), so it runs
 * under exactly that. It must be frameable by the app, so no frame-ancestors.
 */
export const SANDBOX_PROXY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
});

/** The same as a header, which may also forbid framing the app (clickjacking a card's Approve button). */
export const CONTENT_SECURITY_POLICY_HEADER = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

/**
 * The headers every file of the built app is to be served with, by any host.
 * The meta tag reaches the document only: the agent worker and the service
 * worker each run under the policy of their own script's response, so without
 * the header on those files they run under none (no `script-src`, nothing
 * against `eval`). One set for every path keeps hosts' rules to one line:
 * the policy suits the workers as it is (their scripts and imports are 'self';
 * their requests go to user-chosen endpoints, which `connect-src *` leaves
 * open on purpose — a sync server or model endpoint chosen later included).
 * `X-Frame-Options` is `frame-ancestors` for browsers that predate it;
 * `nosniff` keeps a mistyped response from being run as a script.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
});

/**
 * `public/_headers` as it must read (a test keeps the file equal): the format
 * Netlify and Cloudflare Pages read, a path pattern and its indented headers.
 */
export function staticHostHeadersFile(): string {
  const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join('\n')}\n`;
}

/**
 * The dev server's variant: Vite's dev client injects each stylesheet as a
 * `<style>` element and reloads over a WebSocket. Never built into the app.
 */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace(
  'connect-src *',
  'connect-src * ws: wss:',
);
