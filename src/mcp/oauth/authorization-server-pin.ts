import type { OAuthDiscoveryState, OAuthServerInfo } from '@modelcontextprotocol/client';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema, OpenIdProviderDiscoveryMetadataSchema } from '@modelcontextprotocol/core';
import { isLoopbackHost } from '../../storage/endpoint-origin.ts';
import type { AuthorizationServerPin } from '../../storage/records/mcp-oauth-record.ts';

/** The authorization server's metadata cannot be trusted with a sign-in; the message says why, for the user. */
export class AuthorizationServerRefused extends Error {
  override readonly name = 'AuthorizationServerRefused';
}

/**
 * The endpoints a sign-in, refresh or Sign out sends something to (the code,
 * the refresh token, the registration, the tokens to revoke), and the ones
 * other flows might use later.
 */
const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'introspection_endpoint'] as const;

/**
 * Checks what discovery found and pins it: the metadata must exist, name the
 * authorization server discovery asked (RFC 8414 §3.3: `issuer` identical to
 * the URL its metadata was read for), and keep every endpoint on that issuer's
 * own origin over HTTPS (plain http only on this computer). Anything else is
 * refused with what was wrong.
 */
export function pinAuthorizationServer(info: OAuthServerInfo, resourceMetadataUrl: string | null, now: number): AuthorizationServerPin {
  const where = info.authorizationServerUrl;
  const metadata: Record<string, unknown> | undefined = info.authorizationServerMetadata && { ...info.authorizationServerMetadata };
  if (!metadata) throw new AuthorizationServerRefused(`The authorization server at ${where} publishes no metadata (RFC 8414), so where a sign-in would go cannot be checked.`);
  const issuer = typeof metadata.issuer === 'string' && URL.canParse(metadata.issuer) ? new URL(metadata.issuer) : null;
  if (!issuer || !sameIssuer(issuer.href, where)) {
    throw new AuthorizationServerRefused(`The authorization server at ${where} names another issuer in its metadata (${String(metadata.issuer)}); its metadata is not its own.`);
  }
  if (!secureOrLoopback(issuer)) throw new AuthorizationServerRefused(`The authorization server ${issuer.href} is not on https://; sign-in secrets would cross the network unprotected.`);
  for (const name of ENDPOINTS) {
    const value = metadata[name];
    if (value === undefined) continue;
    const endpoint = typeof value === 'string' && URL.canParse(value) ? new URL(value) : null;
    if (!endpoint || endpoint.origin !== issuer.origin) {
      throw new AuthorizationServerRefused(`The authorization server ${issuer.origin} puts its ${name.replace('_', ' ')} on another origin (${String(value)}); Pausepoint sends sign-in secrets only to the issuer's own origin.`);
    }
    if (!secureOrLoopback(endpoint)) throw new AuthorizationServerRefused(`The authorization server's ${name.replace('_', ' ')} (${endpoint.href}) is not on https://.`);
  }
  const resourceMetadata: Record<string, unknown> | null = info.resourceMetadata ? { ...info.resourceMetadata } : null;
  return { authorizationServerUrl: where, resourceMetadataUrl, resourceMetadata, metadata, pinnedAt: now };
}

/** What discovery finds now says the same as the pin: the same authorization server, with the same metadata. */
export function samePin(pin: AuthorizationServerPin, now: OAuthServerInfo): boolean {
  return (
    sameIssuer(pin.authorizationServerUrl, now.authorizationServerUrl) &&
    now.authorizationServerMetadata !== undefined &&
    canonical(pin.metadata) === canonical(now.authorizationServerMetadata)
  );
}

/** The pin in the shape the SDK's `auth()` restores instead of discovering (`OAuthClientProvider.discoveryState`). */
export function discoveryStateOf(pin: AuthorizationServerPin): OAuthDiscoveryState {
  const oauth = OAuthMetadataSchema.safeParse(pin.metadata);
  const metadata = oauth.success ? oauth.data : OpenIdProviderDiscoveryMetadataSchema.parse(pin.metadata);
  const resource = OAuthProtectedResourceMetadataSchema.safeParse(pin.resourceMetadata);
  return {
    authorizationServerUrl: pin.authorizationServerUrl,
    authorizationServerMetadata: metadata,
    ...(resource.success ? { resourceMetadata: resource.data } : {}),
    ...(pin.resourceMetadataUrl ? { resourceMetadataUrl: pin.resourceMetadataUrl } : {}),
  };
}

/** RFC 9207: the authorization server says it names itself in the callback (`iss`), so an answer without it, or naming another, is refused. */
export function checkCallbackIssuer(pin: AuthorizationServerPin, iss: string | null): string | null {
  const expected = String(pin.metadata.issuer);
  if (iss !== null) return iss === expected ? null : `The sign-in answer came from another authorization server (${iss}), not ${expected}.`;
  return pin.metadata.authorization_response_iss_parameter_supported === true ? `The sign-in answer did not say which authorization server sent it, though ${expected} always says so.` : null;
}

function secureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** As the SDK binds credentials to an authorization server: the same URL, give or take a trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  const strip = (s: string) => (URL.canParse(s) ? new URL(s).href : s).replace(/\/$/, '');
  return strip(a) === strip(b);
}

/** JSON with sorted keys: two documents that differ only in key order are the same metadata. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
