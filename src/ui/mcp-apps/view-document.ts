import type { ViewCsp } from '../../mcp/ui-resource.ts';

/**
 * A source a view may declare: a scheme and host (a leading `*.` for
 * subdomains), an optional port, nothing else — no keywords, paths, quotes,
 * `;` or spaces that could widen the policy or add a directive.
 */
const SOURCE = /^(?:https?|wss?):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?$/i;

function sources(declared: readonly string[] | undefined, none: string): string {
  const kept = [...new Set((declared ?? []).filter((source) => SOURCE.test(source)))];
  return kept.length > 0 ? kept.join(' ') : none;
}

/**
 * The Content-Security-Policy a view's document runs under: what its resource
 * declared (`_meta.ui.csp`) and nothing wider. Its own inline scripts and
 * styles run (a view is one HTML document); scripts, styles, images, fonts and
 * media come from its `resourceDomains` only, requests go to its
 * `connectDomains` only (none declared: none at all), frames to its
 * `frameDomains` only. No plugins, no form posts. `'self'` is never granted:
 * the view's origin is opaque, and its URL's would be the sandbox origin's.
 */
export function viewPolicy(csp: ViewCsp): string {
  const resources = sources(csp.resourceDomains, '');
  const withResources = (base: string) => (resources ? `${base} ${resources}` : base);
  return [
    "default-src 'none'",
    withResources("script-src 'unsafe-inline'"),
    withResources("style-src 'unsafe-inline'"),
    withResources('img-src data: blob:'),
    withResources('font-src data:'),
    withResources('media-src data: blob:'),
    `connect-src ${sources(csp.connectDomains, "'none'")}`,
    `frame-src ${sources(csp.frameDomains, "'none'")}`,
    `base-uri ${sources(csp.baseUriDomains, "'none'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
}

function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * The view's HTML with its policy as the very first element of its head, so
 * that it holds before anything of the view is parsed (a policy a meta tag
 * sets covers only what comes after it). A leading doctype is kept in front
 * (standards mode); the view's own `<html>` and `<head>` tags that follow are
 * folded in by the parser. A policy the view adds itself can only narrow it.
 */
export function viewDocument(html: string, csp: ViewCsp): string {
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const rest = doctype ? html.slice(doctype[0].length) : html;
  return `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="${attribute(viewPolicy(csp))}">${rest}`;
}
