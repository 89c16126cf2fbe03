/**
 * Where an endpoint's requests (and its API key) go, judged without zod: the
 * page reads settings on every start and should not load it for that.
 */

/** The origin of an http(s) base URL (`https://api.openai.com`), or undefined for anything else. */
export function endpointOrigin(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
}

/**
 * This computer, as a URL names it: `localhost`, 127.0.0.0/8, `[::1]`. The
 * URL parser has already lower-cased the host and written IPv4 addresses out
 * in dotted decimal (`127.1` is `127.0.0.1`), so exact forms suffice here.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Plain http is for endpoints on this computer only (Ollama, LM Studio): over
 * a network, anyone on the path could read the API key and rewrite the model's
 * answers. True for anything that is not an http URL: other checks judge those.
 */
export function plainHttpAllowed(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return true;
  }
  return url.protocol !== 'http:' || isLoopbackHost(url.hostname);
}

export const PLAIN_HTTP_REFUSED = 'Use https:// for this address: plain http:// is allowed only for this computer (localhost, 127.0.0.1 or [::1]).';
