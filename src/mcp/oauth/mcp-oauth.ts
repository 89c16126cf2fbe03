import { auth, discoverOAuthServerInfo, IssuerMismatchError, type FetchLike, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { OAuthTokensSchema } from '@modelcontextprotocol/core';
import type { AuthorizationServerPin, McpOAuthRecord } from '../../storage/records/mcp-oauth-record.ts';
import { AuthorizationServerRefused, checkCallbackIssuer, discoveryStateOf, pinAuthorizationServer, samePin } from './authorization-server-pin.ts';
import { shippedClientDocument } from './client-metadata-document.ts';
import { scopeUnion } from '../needs-more-access.ts';
import type { McpOAuthStore } from './mcp-oauth-store.ts';
import { SignInNeeded, StoredOAuthProvider } from './stored-oauth-provider.ts';

/** A sign-in's first half: where the popup goes, or nothing to do (a stored refresh token did it). */
export type SignInStart = { kind: 'redirect'; authorizationUrl: string; state: string } | { kind: 'authorized' };

/**
 * What the server's last refusal said, for Sign in: where its metadata is and the scope it asked for (a 401's
 * WWW-Authenticate), or, after a 403 `insufficient_scope` (`stepUp`), the scope it needs now.
 */
export interface SignInChallenge {
  resourceMetadataUrl?: string | undefined;
  scope?: string | undefined;
  stepUp?: boolean;
}

/** What Sign out did with the server's tokens (they are deleted here in every case). */
export type SignOutResult = { revoked: 'yes' | 'no_tokens' | 'no_endpoint' } | { revoked: 'failed'; reason: string };

/** The sign-in answer does not belong to a sign-in this browser started. */
export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
}

interface ServerRef {
  id: string;
  url: string;
  /** `clientId`: the one the user entered for a pre-registered client, if any. */
  auth?: { clientId?: string | null };
}

export interface McpOAuthOptions {
  fetch?: FetchLike;
  now?: () => number;
  /** 32 random bytes, base64url: the `state` of one sign-in. */
  newState?: () => string;
}

/** Tokens expire this long before their `expires_in` says, so a connection does not start on one about to die. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * OAuth 2.1 for MCP servers, with the SDK's `auth()` doing the protocol. The
 * worker runs all of it; the page only opens the authorization URL in a
 * popup and hands back what the callback page received (the worker cannot
 * navigate). `state` is checked here, once: an answer with another state, or
 * a second answer with the same one, is refused; so is one whose `iss` names
 * another authorization server (RFC 9207).
 *
 * Discovery runs at Sign in only. What it finds is checked and pinned
 * (authorization-server-pin.ts); refreshes and Sign out use the pin, and a
 * refresh first checks that discovery still finds the same, or asks for a
 * new sign-in instead.
 */
export class McpOAuth {
  readonly #fetch: FetchLike | undefined;
  readonly #now: () => number;
  readonly #newState: () => string;

  constructor(
    private readonly store: McpOAuthStore,
    options: McpOAuthOptions = {},
  ) {
    this.#fetch = options.fetch;
    this.#now = options.now ?? Date.now;
    this.#newState = options.newState ?? randomState;
  }

  /**
   * The provider a connection uses when this browser holds tokens for the
   * server (the SDK's transport then sends them, to that server only, and
   * refreshes them on a 401). Expired tokens are refreshed first; throws
   * `SignInNeeded` when that fails.
   */
  async connectionProvider(server: ServerRef): Promise<OAuthClientProvider | undefined> {
    const row = await this.store.get(server.id);
    if (!row?.tokens) return undefined;
    const provider = new StoredOAuthProvider(
      this.store,
      server.id,
      row.redirectUrl,
      { kind: 'connection', discovery: () => this.#stillPinned(server) },
      { now: this.#now, clientId: clientIdOf(server) },
    );
    const tokens = await provider.tokens();
    if (tokens?.refresh_token && expired(row, tokens.expires_in, this.#now())) {
      // With a refresh token and no code, auth() refreshes; it never starts a sign-in from here (SignInNeeded).
      await auth(provider, { serverUrl: server.url, fetchFn: this.#fetch });
    }
    return provider;
  }

  /**
   * Discovery (from the 401's `resource_metadata` when the server gave one,
   * else the well-known URLs), checked and pinned; the client's identity (the
   * client id the user entered, else this app's Client ID Metadata Document
   * where the authorization server takes one, else a registration); PKCE: the
   * authorization URL for the popup, with its state. The scope asked for is
   * the one the server's 401 named (else the SDK's choice: the metadata's
   * `scopes_supported`, or none); a step-up asks for the scopes held together
   * with those the 403 named, and never refreshes instead.
   */
  async begin(server: ServerRef, redirectUrl: string, challenge: SignInChallenge = {}): Promise<SignInStart> {
    const { resourceMetadataUrl, stepUp = false } = challenge;
    const row = await this.store.get(server.id);
    const scope = (stepUp ? scopeUnion(heldScope(row), challenge.scope) : scopeUnion(challenge.scope)) || undefined;
    const state = this.#newState();
    const info = await discoverOAuthServerInfo(server.url, { fetchFn: this.#fetch, ...(resourceMetadataUrl ? { resourceMetadataUrl: new URL(resourceMetadataUrl) } : {}) }).catch(
      (error: unknown) => {
        // The SDK refuses metadata that names another issuer (RFC 8414 §3.3) before pinAuthorizationServer would: said as the pin says it.
        if (error instanceof IssuerMismatchError && error.kind === 'metadata') {
          throw new AuthorizationServerRefused(`The authorization server at ${error.expected} names another issuer in its metadata (${error.received}); its metadata is not its own.`);
        }
        throw error;
      },
    );
    const discovery = pinAuthorizationServer(info, resourceMetadataUrl ?? null, this.#now());
    const clientId = clientIdOf(server);
    // This app's Client ID Metadata Document, where the authorization server takes one and the host serves the one built for this address.
    const clientMetadataUrl = !clientId && discovery.metadata.client_id_metadata_document_supported === true ? (await shippedClientDocument(redirectUrl, this.#fetch)).url : null;
    if (!clientId && !clientMetadataUrl && discovery.metadata.registration_endpoint === undefined && !row?.clientInformation) {
      throw new AuthorizationServerRefused(
        `The authorization server ${discovery.authorizationServerUrl} registers no clients by itself: remove this server and add it again with the Client ID that authorization server gave you for Pausepoint.`,
      );
    }
    let authorizationUrl: URL | null = null;
    const provider = new StoredOAuthProvider(
      this.store,
      server.id,
      redirectUrl,
      { kind: 'interactive', state, discovery, onRedirect: (url) => (authorizationUrl = url), scope: scope ?? null, freshGrant: stepUp, ...(clientMetadataUrl ? { clientMetadataUrl } : {}) },
      { now: this.#now, clientId },
    );
    const result = await auth(provider, { serverUrl: server.url, fetchFn: this.#fetch, ...(scope ? { scope } : {}) });
    if (result === 'AUTHORIZED') return { kind: 'authorized' };
    if (!authorizationUrl) throw new Error('The authorization server gave no address to sign in at.');
    return { kind: 'redirect', authorizationUrl: (authorizationUrl as URL).href, state };
  }

  /**
   * The callback's code, state and `iss`: the state must be this sign-in's (used once), `iss` the pinned
   * authorization server's (RFC 9207, required where it says it sends one), then the code is exchanged for
   * tokens at that authorization server.
   */
  async finish(server: ServerRef, code: string, state: string, iss: string | null = null): Promise<void> {
    const started: { verifier?: string; redirectUrl?: string; discovery?: AuthorizationServerPin | null; scope?: string | null } = {};
    // Consumed atomically: a replayed or foreign answer finds no pending sign-in with its state.
    await this.store.update(server.id, (row) => {
      if (!row?.pending?.codeVerifier || !sameString(row.pending.state, state)) return row ?? null;
      Object.assign(started, { verifier: row.pending.codeVerifier, redirectUrl: row.redirectUrl, discovery: row.pending.authorizationServer, scope: row.pending.scope });
      return { ...row, pending: null, updatedAt: this.#now() };
    });
    const { verifier, redirectUrl = '', discovery } = started;
    if (!verifier) throw new SignInRefused('This sign-in answer does not match a sign-in started in this browser (its state differs). Press Sign in again.');
    if (!discovery) throw new SignInRefused('This sign-in was started by an older version of Pausepoint. Press Sign in again.');
    // Checked before the code goes anywhere: an answer from another authorization server is a mix-up attack.
    const wrongIssuer = checkCallbackIssuer(discovery, iss);
    if (wrongIssuer) throw new SignInRefused(`${wrongIssuer} Press Sign in again.`);
    const provider = new StoredOAuthProvider(
      this.store,
      server.id,
      redirectUrl,
      {
        kind: 'interactive',
        state,
        discovery,
        codeVerifier: verifier,
        scope: started.scope ?? null,
        onRedirect: () => {
          throw new SignInNeeded('The authorization server asked for another sign-in.');
        },
      },
      { now: this.#now, clientId: clientIdOf(server) },
    );
    // The SDK checks `iss` too (RFC 9207), against the same pinned discovery.
    const result = await auth(provider, { serverUrl: server.url, authorizationCode: code, ...(iss ? { iss } : {}), fetchFn: this.#fetch });
    if (result !== 'AUTHORIZED') throw new SignInNeeded('The authorization server did not give tokens.');
  }

  /**
   * Deletes the tokens, then asks the authorization server they came from to revoke them (RFC 7009) if its
   * pinned metadata names an endpoint: no discovery, so nothing the servers say now can redirect the tokens.
   */
  async signOut(server: ServerRef): Promise<SignOutResult> {
    const row = await this.store.get(server.id);
    await this.store.update(server.id, (r) => (r ? { ...r, tokens: null, tokensSavedAt: null, authorizationServer: null, scope: null, pending: null, updatedAt: this.#now() } : null));
    const tokens = OAuthTokensSchema.safeParse(row?.tokens);
    if (!row || !tokens.success) return { revoked: 'no_tokens' };
    // OpenID metadata has no revocation_endpoint in the SDK's type: read it as RFC 8414 names it. The pin checked its origin.
    const endpoint = row.authorizationServer?.metadata.revocation_endpoint;
    if (typeof endpoint !== 'string') return { revoked: 'no_endpoint' };
    const clientId = clientIdOf(server) ?? (typeof row.clientInformation?.client_id === 'string' ? row.clientInformation.client_id : null);
    const secret = typeof row.clientInformation?.client_secret === 'string' ? row.clientInformation.client_secret : null;
    const pairs: [string, string][] = [];
    if (tokens.data.refresh_token) pairs.push([tokens.data.refresh_token, 'refresh_token']);
    pairs.push([tokens.data.access_token, 'access_token']);
    try {
      for (const [token, hint] of pairs) {
        const body = new URLSearchParams({ token, token_type_hint: hint });
        if (clientId) body.set('client_id', clientId);
        if (secret) body.set('client_secret', secret);
        const response = await (this.#fetch ?? fetch)(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        if (!response.ok) return { revoked: 'failed', reason: `the revocation endpoint answered HTTP ${response.status}` };
      }
      return { revoked: 'yes' };
    } catch (error) {
      return { revoked: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The server was removed: its registration and tokens go too. */
  forget(serverId: string): Promise<void> {
    return this.store.remove(serverId);
  }

  /**
   * Before a refresh: the pinned authorization server, if discovery still finds exactly it. Anything else
   * (another authorization server, changed metadata, none) is a new sign-in for the user to accept; the
   * refresh token is sent nowhere.
   */
  async #stillPinned(server: ServerRef): Promise<OAuthDiscoveryState> {
    const pin = (await this.store.get(server.id))?.authorizationServer;
    if (!pin) throw new SignInNeeded('its tokens come from a sign-in that pinned no authorization server; sign in again');
    const now = await discoverOAuthServerInfo(server.url, { fetchFn: this.#fetch, ...(pin.resourceMetadataUrl ? { resourceMetadataUrl: new URL(pin.resourceMetadataUrl) } : {}) }).catch(
      (error: unknown) => {
        if (error instanceof IssuerMismatchError) return null;
        throw error;
      },
    );
    if (!now || !samePin(pin, now)) {
      throw new SignInNeeded(`its authorization server's metadata changed since you signed in (${pin.authorizationServerUrl}); sign in again to accept the new one`);
    }
    return discoveryStateOf(pin);
  }
}

function clientIdOf(server: ServerRef): string | null {
  return server.auth?.clientId?.trim() || null;
}

/** The scopes this browser's tokens for the server carry (`null` when it holds none, or does not know). */
function heldScope(row: McpOAuthRecord | undefined): string | null {
  if (!row?.tokens) return null;
  const said = row.tokens.scope;
  return typeof said === 'string' ? said : row.scope;
}

function expired(row: McpOAuthRecord, expiresIn: number | undefined, now: number): boolean {
  if (expiresIn === undefined || row.tokensSavedAt === null) return false;
  return row.tokensSavedAt + expiresIn * 1000 - EXPIRY_MARGIN_MS <= now;
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Compares without stopping at the first difference. */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
