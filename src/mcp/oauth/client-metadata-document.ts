import type { FetchLike, OAuthClientMetadata } from '@modelcontextprotocol/client';
import { z } from 'zod';

/**
 * Pausepoint's OAuth client identity as a Client ID Metadata Document (the
 * MCP authorization spec's preferred way, draft-ietf-oauth-client-id-metadata-document):
 * `<app>/client-metadata.json`, beside index.html and the callback page, whose
 * URL is the client id. An authorization server that advertises
 * `client_id_metadata_document_supported` fetches it instead of taking a
 * dynamic registration. The same fields are what dynamic registration sends.
 */
export const CLIENT_DOCUMENT_PATH = 'client-metadata.json';

/** What Pausepoint registers as, dynamically or by its document: a public client (a browser keeps no secret), protected by PKCE. */
export function clientMetadata(redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: 'Pausepoint',
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/** The document's address for the app whose callback page is `redirectUrl` (the document sits beside it). */
export function clientDocumentUrl(redirectUrl: string): string {
  return new URL(CLIENT_DOCUMENT_PATH, redirectUrl).href;
}

/** The document as the build ships it for an app served at `appUrl` (its index.html's directory). */
export function clientDocument(appUrl: string): OAuthClientMetadata & { client_id: string } {
  const redirectUrl = new URL('mcp-oauth-callback', appUrl).href;
  return { client_id: clientDocumentUrl(redirectUrl), client_uri: new URL(appUrl).href, ...clientMetadata(redirectUrl) };
}

const ShippedDocument = z.object({ client_id: z.string(), redirect_uris: z.array(z.string()) }).loose();

/**
 * The document's URL when this app ships one that names it: on https (the
 * spec, and the SDK, take no other), its `client_id` its own URL and the
 * callback among its `redirect_uris`. A host that does not serve it (a build
 * without `PAUSEPOINT_PUBLIC_URL`, or for another address) gets `null` and a
 * reason: the sign-in falls back to dynamic registration.
 */
export async function shippedClientDocument(redirectUrl: string, fetchFn: FetchLike = fetch): Promise<{ url: string } | { url: null; reason: string }> {
  const url = clientDocumentUrl(redirectUrl);
  if (new URL(url).protocol !== 'https:') return { url: null, reason: 'the app is not served over https' };
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    // Offline, or the host refused: no document to offer, so the sign-in registers dynamically instead of failing.
    return { url: null, reason: `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!response.ok) return { url: null, reason: `${url} answered HTTP ${response.status}` };
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    // An SPA fallback answers index.html for any path: not a document.
    return { url: null, reason: `${url} is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const document = ShippedDocument.safeParse(body);
  if (!document.success) return { url: null, reason: `${url} is not a client metadata document` };
  if (document.data.client_id !== url || !document.data.redirect_uris.includes(redirectUrl)) return { url: null, reason: `${url} was built for another address` };
  return { url };
}
