import type { OAuthServerInfo } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { AuthorizationServerRefused, checkCallbackIssuer, discoveryStateOf, pinAuthorizationServer, samePin } from './authorization-server-pin.ts';
import { clientDocument, shippedClientDocument } from './client-metadata-document.ts';

function found(issuer: string, endpoints: Record<string, string> = {}, where = issuer): OAuthServerInfo {
  const origin = new URL(issuer).origin;
  return {
    authorizationServerUrl: where,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      response_types_supported: ['code'],
      ...endpoints,
    },
    resourceMetadata: { resource: 'https://mcp.example/mcp', authorization_servers: [where] },
  };
}

const refusal = (info: OAuthServerInfo) => {
  try {
    pinAuthorizationServer(info, null, 0);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthorizationServerRefused);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('pinning the authorization server (issue 26 point 7)', () => {
  it('takes endpoints on the issuer’s own origin over https, or plain http on this computer only', () => {
    expect(pinAuthorizationServer(found('https://auth.example/', { revocation_endpoint: 'https://auth.example/revoke' }), null, 5)).toMatchObject({
      authorizationServerUrl: 'https://auth.example/',
      metadata: { token_endpoint: 'https://auth.example/token' },
      pinnedAt: 5,
    });
    for (const loopback of ['http://localhost:9000/', 'http://127.0.0.1:9000/', 'http://[::1]:9000/']) {
      expect(pinAuthorizationServer(found(loopback), null, 0).authorizationServerUrl).toBe(loopback);
    }
    // A trailing slash is not another issuer (the SDK binds credentials the same way).
    expect(pinAuthorizationServer(found('https://auth.example/tenant', {}, 'https://auth.example/tenant/'), null, 0).metadata.issuer).toBe('https://auth.example/tenant');
  });

  it('refuses, saying why: plain http over the network, an endpoint on another origin, another issuer, no metadata', () => {
    expect(refusal(found('http://auth.example/'))).toMatch(/http:\/\/auth\.example\/ is not on https:\/\//);
    expect(refusal(found('https://auth.example/', { revocation_endpoint: 'http://auth.example/revoke' }))).toMatch(/revocation endpoint on another origin \(http:\/\/auth\.example\/revoke\)/);
    expect(refusal(found('https://auth.example/', { registration_endpoint: 'https://evil.example/register' }))).toMatch(/registration endpoint on another origin/);
    expect(refusal(found('https://auth.example/', { token_endpoint: 'https://auth.example.evil.example/token' }))).toMatch(/token endpoint on another origin/);
    expect(refusal(found('https://auth.example/', {}, 'https://mcp.example/'))).toMatch(/names another issuer/);
    expect(refusal({ authorizationServerUrl: 'https://auth.example/' })).toMatch(/publishes no metadata/);
  });

  it('holds while discovery finds the same (key order aside), and gives the SDK the pinned endpoints', () => {
    const pin = pinAuthorizationServer(found('https://auth.example/'), 'https://mcp.example/.well-known/oauth-protected-resource/mcp', 0);
    const reordered = found('https://auth.example/');
    reordered.authorizationServerMetadata = Object.fromEntries(Object.entries(reordered.authorizationServerMetadata!).reverse()) as typeof reordered.authorizationServerMetadata;
    expect(samePin(pin, reordered)).toBe(true);
    expect(samePin(pin, found('https://auth.example/', { token_endpoint: 'https://auth.example/v2/token' }))).toBe(false);
    expect(samePin(pin, found('https://other.example/'))).toBe(false);
    expect(samePin(pin, { authorizationServerUrl: 'https://auth.example/' })).toBe(false);
    expect(discoveryStateOf(pin)).toMatchObject({
      authorizationServerUrl: 'https://auth.example/',
      authorizationServerMetadata: { token_endpoint: 'https://auth.example/token' },
      resourceMetadata: { resource: 'https://mcp.example/mcp' },
      resourceMetadataUrl: 'https://mcp.example/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('compares the callback’s iss with the pinned issuer, and requires it where the server says it sends one (RFC 9207)', () => {
    const plain = pinAuthorizationServer(found('https://auth.example/'), null, 0);
    const announced = pinAuthorizationServer(found('https://auth.example/', { authorization_response_iss_parameter_supported: true } as unknown as Record<string, string>), null, 0);
    expect(checkCallbackIssuer(plain, null)).toBeNull();
    expect(checkCallbackIssuer(plain, 'https://auth.example/')).toBeNull();
    expect(checkCallbackIssuer(plain, 'https://evil.example/')).toMatch(/another authorization server/);
    expect(checkCallbackIssuer(announced, 'https://auth.example/')).toBeNull();
    expect(checkCallbackIssuer(announced, null)).toMatch(/did not say which authorization server sent it/);
  });
});

describe('the app’s Client ID Metadata Document (issue 26 point 8)', () => {
  const served = (body: unknown, status = 200) => async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  const callback = 'https://pausepoint.example/app/mcp-oauth-callback';

  it('is used only when the app is on https and its host serves the one built for this address', async () => {
    const document = clientDocument('https://pausepoint.example/app/');
    expect(document).toMatchObject({ client_id: 'https://pausepoint.example/app/client-metadata.json', redirect_uris: [callback], client_name: 'Pausepoint' });
    expect(await shippedClientDocument(callback, served(document))).toEqual({ url: 'https://pausepoint.example/app/client-metadata.json' });
    expect((await shippedClientDocument('http://localhost:4173/mcp-oauth-callback', served(document))).url).toBeNull();
    expect((await shippedClientDocument(callback, served(clientDocument('https://elsewhere.example/')))).url).toBeNull();
    expect((await shippedClientDocument(callback, served('<!doctype html><title>Pausepoint</title>'))).url).toBeNull();
    expect((await shippedClientDocument(callback, served('not found', 404))).url).toBeNull();
  });
});
