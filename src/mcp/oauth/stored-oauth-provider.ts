import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { OAuthClientInformationFullSchema, OAuthClientInformationSchema, OAuthTokensSchema } from '@modelcontextprotocol/core';
import type { AuthorizationServerPin, McpOAuthRecord } from '../../storage/records/mcp-oauth-record.ts';
import { discoveryStateOf } from './authorization-server-pin.ts';
import { clientMetadata } from './client-metadata-document.ts';
import type { McpOAuthStore } from './mcp-oauth-store.ts';

/** The server wants a sign-in that only the user can give (in Settings): no tokens, or they could not be refreshed. */
export class SignInNeeded extends Error {
  override readonly name = 'SignInNeeded';
}

/**
 * `interactive`: a sign-in the user started — the authorization URL is handed
 * to `onRedirect` (the page opens it in a popup), the PKCE verifier is kept,
 * and the authorization server it checked (`discovery`) is pinned with the
 * tokens. `connection`: the worker connecting on its own — it may use and
 * refresh the stored tokens at the pinned authorization server (`discovery`
 * checks the pin still holds), but never starts a sign-in (nor touches one in
 * progress).
 */
export type ProviderMode =
  | {
      kind: 'interactive';
      state: string;
      discovery: AuthorizationServerPin;
      onRedirect: (url: URL) => void;
      /** The verifier of the sign-in being finished. */
      codeVerifier?: string;
      /** This app's Client ID Metadata Document, when the authorization server takes one and the app ships it. */
      clientMetadataUrl?: string;
      /** The scope this sign-in asks for: kept with its verifier, then with the tokens when their answer names none. */
      scope?: string | null;
      /**
       * A step-up (more scopes): the stored tokens are not refreshed instead, since a refresh brings back the
       * scopes they had; the user is sent to the authorization server.
       */
      freshGrant?: boolean;
    }
  | { kind: 'connection'; discovery: () => Promise<OAuthDiscoveryState> };

export interface ProviderOptions {
  now?: () => number;
  /** A client id the authorization server gave the user for Pausepoint: used instead of any registration. */
  clientId?: string | null;
}

/**
 * The SDK's `OAuthClientProvider` over one server's row of the `mcpOAuth`
 * table: the SDK's `auth()` does client registration (a Client ID Metadata
 * Document, or dynamic), PKCE S256, the code exchange and refreshes; this
 * keeps what it learns. Discovery is not the SDK's: `discoveryState()` hands
 * it the authorization server McpOAuth checked and pinned, and there is no
 * `saveDiscoveryState`, so nothing the SDK finds replaces the pin.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #now: () => number;
  readonly #clientId: string | null;

  constructor(
    private readonly store: McpOAuthStore,
    private readonly serverId: string,
    private readonly callbackUrl: string,
    private readonly mode: ProviderMode,
    options: ProviderOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#clientId = options.clientId ?? null;
  }

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.callbackUrl);
  }

  /** Read by `auth()` only when it has no client information and the authorization server takes documents. */
  get clientMetadataUrl(): string | undefined {
    return this.mode.kind === 'interactive' && !this.#clientId ? this.mode.clientMetadataUrl : undefined;
  }

  async discoveryState(): Promise<OAuthDiscoveryState> {
    return this.mode.kind === 'interactive' ? discoveryStateOf(this.mode.discovery) : this.mode.discovery();
  }

  state(): string {
    if (this.mode.kind !== 'interactive') throw new SignInNeeded('Signing in is started from Settings › MCP servers.');
    return this.mode.state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    // Pre-registered: no secret (a browser keeps none), and never replaced by a registration.
    if (this.#clientId) return { client_id: this.#clientId };
    const row = await this.store.get(this.serverId);
    // Registered for another callback URL (the app moved): register again.
    if (!row?.clientInformation || row.redirectUrl !== this.callbackUrl) return undefined;
    const full = OAuthClientInformationFullSchema.safeParse(row.clientInformation);
    if (full.success) return withIssuer(full.data, row.clientInformation);
    const plain = OAuthClientInformationSchema.safeParse(row.clientInformation);
    return plain.success ? withIssuer(plain.data, row.clientInformation) : undefined;
  }

  async saveClientInformation(clientInformation: StoredOAuthClientInformation): Promise<void> {
    await this.#change((row) => ({ ...row, redirectUrl: this.callbackUrl, clientInformation: { ...clientInformation } }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    if (this.mode.kind === 'interactive' && this.mode.freshGrant) return undefined;
    const row = await this.store.get(this.serverId);
    const parsed = OAuthTokensSchema.safeParse(row?.tokens);
    return parsed.success && row?.tokens ? withIssuer(parsed.data, row.tokens) : undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const mode = this.mode;
    // A sign-in pins the authorization server it checked, with the tokens it gave; a refresh keeps the pin it used.
    await this.#change((row) => ({
      ...row,
      tokens: { ...tokens },
      tokensSavedAt: this.#now(),
      authorizationServer: mode.kind === 'interactive' ? mode.discovery : row.authorizationServer,
      scope: tokens.scope ?? (mode.kind === 'interactive' ? (mode.scope ?? null) : row.scope),
    }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.mode.kind !== 'interactive') throw new SignInNeeded('The server needs a new sign-in.');
    this.mode.onRedirect(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    const mode = this.mode;
    // A connection never starts a sign-in, so it must not overwrite the verifier of one the user started.
    if (mode.kind !== 'interactive') return;
    await this.#change((row) => ({ ...row, pending: { state: mode.state, codeVerifier, startedAt: this.#now(), authorizationServer: mode.discovery, scope: mode.scope ?? null } }));
  }

  async codeVerifier(): Promise<string> {
    if (this.mode.kind === 'interactive' && this.mode.codeVerifier) return this.mode.codeVerifier;
    const row = await this.store.get(this.serverId);
    if (!row?.pending?.codeVerifier) throw new SignInNeeded('No sign-in is in progress for this server.');
    return row.pending.codeVerifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.#change((row) => ({
      ...row,
      clientInformation: scope === 'all' || scope === 'client' ? null : row.clientInformation,
      tokens: scope === 'all' || scope === 'tokens' ? null : row.tokens,
      tokensSavedAt: scope === 'all' || scope === 'tokens' ? null : row.tokensSavedAt,
      ...(scope === 'all' || scope === 'tokens' ? { scope: null } : {}),
      // The pin belongs to the tokens; dropping discovery means the next refresh asks for a sign-in.
      authorizationServer: scope === 'all' || scope === 'tokens' || scope === 'discovery' ? null : row.authorizationServer,
      pending: scope === 'all' || scope === 'verifier' ? null : row.pending,
    }));
  }

  async #change(change: (row: McpOAuthRecord) => McpOAuthRecord): Promise<void> {
    await this.store.update(this.serverId, (row) => ({ ...change(row ?? emptyRow(this.serverId, this.callbackUrl, this.#now())), updatedAt: this.#now() }));
  }
}

/**
 * What was stored, as the SDK's schema reads it, with the `issuer` the SDK stamped on it when saving (SEP-2352):
 * the SDK uses tokens and a registration only with the authorization server that issued them.
 */
function withIssuer<T extends object>(parsed: T, stored: Record<string, unknown>): T & { issuer?: string } {
  return typeof stored.issuer === 'string' ? { ...parsed, issuer: stored.issuer } : parsed;
}

export function emptyRow(serverId: string, redirectUrl: string, now: number): McpOAuthRecord {
  return { v: 1, serverId, redirectUrl, clientInformation: null, tokens: null, tokensSavedAt: null, authorizationServer: null, scope: null, pending: null, updatedAt: now };
}
