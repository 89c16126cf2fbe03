import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  OAuthTokensSchema,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthRecord, McpOAuthStore } from './mcp-oauth-record.ts';

/** The server wants a sign-in that only the user can give (in Settings): no tokens, or they could not be refreshed. */
export class SignInNeeded extends Error {
  override readonly name = 'SignInNeeded';
}

/**
 * `interactive`: a sign-in the user started — the authorization URL is handed
 * to `onRedirect` (the page opens it in a popup), the PKCE verifier is kept.
 * `connection`: the worker connecting on its own — it may use and refresh the
 * stored tokens, but never starts a sign-in (nor touches one in progress).
 */
export type ProviderMode =
  | { kind: 'interactive'; state: string; onRedirect: (url: URL) => void; /** The verifier of the sign-in being finished. */ codeVerifier?: string }
  | { kind: 'connection' };

/**
 * The SDK's `OAuthClientProvider` over one server's row of the `mcpOAuth`
 * table: the SDK's `auth()` does discovery (RFC 9728, RFC 8414), dynamic
 * client registration, PKCE S256, the code exchange and refreshes; this
 * keeps what it learns.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly store: McpOAuthStore,
    private readonly serverId: string,
    private readonly callbackUrl: string,
    private readonly mode: ProviderMode,
    private readonly now: () => number = Date.now,
  ) {}

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Pausepoint',
      redirect_uris: [this.callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A browser app keeps no secret: a public client, protected by PKCE.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    if (this.mode.kind !== 'interactive') throw new SignInNeeded('Signing in is started from Settings › MCP servers.');
    return this.mode.state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const row = await this.store.get(this.serverId);
    // Registered for another callback URL (the app moved): register again.
    if (!row?.clientInformation || row.redirectUrl !== this.callbackUrl) return undefined;
    const full = OAuthClientInformationFullSchema.safeParse(row.clientInformation);
    if (full.success) return full.data;
    const plain = OAuthClientInformationSchema.safeParse(row.clientInformation);
    return plain.success ? plain.data : undefined;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    await this.#change((row) => ({ ...row, redirectUrl: this.callbackUrl, clientInformation: { ...clientInformation } }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const row = await this.store.get(this.serverId);
    const parsed = OAuthTokensSchema.safeParse(row?.tokens);
    return parsed.success ? parsed.data : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#change((row) => ({ ...row, tokens: { ...tokens }, tokensSavedAt: this.now() }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.mode.kind !== 'interactive') throw new SignInNeeded('The server needs a new sign-in.');
    this.mode.onRedirect(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    const mode = this.mode;
    // A connection never starts a sign-in, so it must not overwrite the verifier of one the user started.
    if (mode.kind !== 'interactive') return;
    await this.#change((row) => ({ ...row, pending: { state: mode.state, codeVerifier, startedAt: this.now() } }));
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
      pending: scope === 'all' || scope === 'verifier' ? null : row.pending,
    }));
  }

  async #change(change: (row: McpOAuthRecord) => McpOAuthRecord): Promise<void> {
    await this.store.update(this.serverId, (row) => ({ ...change(row ?? emptyRow(this.serverId, this.callbackUrl, this.now())), updatedAt: this.now() }));
  }
}

export function emptyRow(serverId: string, redirectUrl: string, now: number): McpOAuthRecord {
  return { v: 1, serverId, redirectUrl, clientInformation: null, tokens: null, tokensSavedAt: null, pending: null, updatedAt: now };
}
