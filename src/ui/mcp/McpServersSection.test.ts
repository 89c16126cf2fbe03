// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { McpServerRecord } from '../../storage/records/mcp-server-record.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import type { McpControl } from '../../worker/agent-client.ts';
import McpServersSection from './McpServersSection.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const definition = (name: string, annotations: McpServerRecord['tools'][number]['definition']['annotations']) => ({
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object' },
  annotations,
});

function server(over: Partial<McpServerRecord> = {}): McpServerRecord {
  const echo = definition('echo', { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  const wipe = definition('wipe', {});
  return {
    v: 1,
    id: 'srv-1',
    url: 'http://localhost:18600/mcp',
    name: 'Everything',
    prefix: 'everything',
    createdAt: 1,
    enabled: true,
    trusted: false,
    auth: { bearerToken: null, headers: {} },
    status: { kind: 'connected', at: 1, transport: 'streamable_http' },
    serverInfo: { name: 'everything', version: '1' },
    tools: [
      { definition: echo, hash: 'h1', pinned: { hash: 'h1', definition: echo, at: 1 }, enabled: true },
      { definition: wipe, hash: 'h3', pinned: { hash: 'h2', definition: wipe, at: 1 }, enabled: false },
    ],
    ...over,
  };
}

function setUp() {
  const mcp = {
    add: vi.fn(async () => ({ serverId: 'srv-2' })),
    setEnabled: vi.fn(async () => {}),
    setTrusted: vi.fn(async () => {}),
    setToolEnabled: vi.fn(async () => {}),
    remove: vi.fn(async () => {}),
    beginSignIn: vi.fn(async () => ({ kind: 'authorized' as const })),
    finishSignIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => ({ revoked: 'yes' as const })),
    cancelTask: vi.fn(async () => {}),
    setShowViews: vi.fn(async () => {}),
    readView: vi.fn(async () => ({ html: '', csp: {} })),
  } satisfies McpControl;
  const { app, context } = fakeContext({ db });
  Object.assign(app.client, { mcp });
  render(McpServersSection, { context });
  return { mcp };
}

describe('Settings › MCP servers', () => {
  it('adds a server by its URL, name and token', async () => {
    const { mcp } = setUp();
    expect(screen.getByRole('heading', { name: 'MCP servers' })).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('Server URL'), { target: { value: 'not a url' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(screen.getByRole('alert').textContent).toContain('full address');
    expect(mcp.add).not.toHaveBeenCalled();

    await fireEvent.input(screen.getByLabelText('Server URL'), { target: { value: 'https://mcp.example.com/mcp' } });
    await fireEvent.input(screen.getByLabelText('Name (optional)'), { target: { value: 'Example' } });
    await fireEvent.input(screen.getByLabelText('Bearer token (optional)'), { target: { value: 'tok' } });
    await fireEvent.input(screen.getByLabelText('Custom headers (optional)'), { target: { value: 'X-Team: blue' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(mcp.add).toHaveBeenCalledWith({ url: 'https://mcp.example.com/mcp', name: 'Example', bearerToken: 'tok', headers: { 'X-Team': 'blue' } });
  });

  it('shows each stored server with its status, tools, annotations and switches', async () => {
    await db.mcpServers.put(server());
    await db.mcpServers.put(server({ id: 'srv-9', name: 'Broken', createdAt: 2, status: { kind: 'failed', reason: 'Could not reach it: CORS', at: 2 }, tools: [] }));
    const { mcp } = setUp();
    const everything = await screen.findByRole('article', { name: 'Everything' });
    expect(within(everything).getByRole('status').textContent).toBe('Connected (Streamable HTTP)');
    const echo = within(everything).getByRole('switch', { name: 'echo' }) as HTMLInputElement;
    expect(echo.checked).toBe(true);
    const wipe = within(everything).getByRole('switch', { name: 'wipe' }) as HTMLInputElement;
    expect(wipe.checked).toBe(false);
    const items = within(everything).getAllByRole('listitem').map((li) => li.textContent ?? '');
    expect(items[0]).toContain('read-only');
    expect(items[0]).toContain('closed-world');
    expect(items[1]).toContain('destructive');
    expect(items[1]).toContain('changed since approved');
    const broken = screen.getByRole('article', { name: 'Broken' });
    expect(within(broken).getByRole('status').textContent).toBe('Failed: Could not reach it: CORS');

    await fireEvent.click(wipe);
    await waitFor(() => expect(mcp.setToolEnabled).toHaveBeenCalledWith('srv-1', 'wipe', true));
    await fireEvent.click(within(everything).getByRole('switch', { name: 'Trust this server' }));
    await waitFor(() => expect(mcp.setTrusted).toHaveBeenCalledWith('srv-1', true));
    await fireEvent.click(within(everything).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(mcp.setEnabled).toHaveBeenCalledWith('srv-1', false));
    await fireEvent.click(within(everything).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(mcp.remove).toHaveBeenCalledWith('srv-1'));
  });

  it('point 16: refuses a plain http URL that is not this computer before asking the worker', async () => {
    const { mcp } = setUp();
    await fireEvent.input(screen.getByLabelText('Server URL'), { target: { value: 'http://mcp.example.com/mcp' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(screen.getByRole('alert').textContent).toContain('plain http:// is allowed only for a server on this computer');
    expect(mcp.add).not.toHaveBeenCalled();
  });

  it('point 16: says which tools are not offered, and shows no tool the server stopped listing', async () => {
    const gone = definition('gone', {});
    const stored = server();
    await db.mcpServers.put({
      ...stored,
      tools: [...stored.tools, { definition: gone, hash: 'h4', pinned: { hash: 'h4', definition: gone, at: 1 }, enabled: true, listed: false }],
      refusals: ['“a.b” and “a_b” are not offered: each would be called everything__a_b, so the server must rename one of them.'],
    });
    setUp();
    const everything = await screen.findByRole('article', { name: 'Everything' });
    expect(within(everything).queryByRole('switch', { name: 'gone' })).toBeNull();
    const refused = within(everything).getByRole('list', { name: 'Tools of Everything not offered' });
    expect(refused.textContent).toContain('“a.b” and “a_b” are not offered');
  });

  it('offers Sign in to a server that needs it, and Sign out to one signed in with OAuth', async () => {
    await db.mcpServers.put(server({ id: 'srv-a', name: 'Locked', status: { kind: 'needs_auth', reason: 'asks for sign-in (HTTP 401)', at: 1 }, tools: [] }));
    await db.mcpServers.put(server({ id: 'srv-b', name: 'Signed', createdAt: 2, auth: { bearerToken: null, headers: {}, oauth: true } }));
    const { mcp } = setUp();
    const locked = await screen.findByRole('article', { name: 'Locked' });
    expect(within(locked).getByRole('status').textContent).toBe('Needs sign-in: asks for sign-in (HTTP 401)');
    expect(within(locked).queryByRole('button', { name: 'Sign out' })).toBeNull();
    const signed = screen.getByRole('article', { name: 'Signed' });
    expect(within(signed).queryByRole('button', { name: 'Sign in' })).toBeNull();

    // The popup opens inside the click; with nothing to sign in to (the worker says so), it closes again.
    const popup = { close: vi.fn(), location: { href: '' } };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    await fireEvent.click(within(locked).getByRole('button', { name: 'Sign in' }));
    expect(open).toHaveBeenCalledWith('about:blank', 'pausepoint-mcp-sign-in', expect.stringContaining('popup'));
    await waitFor(() => expect(mcp.beginSignIn).toHaveBeenCalledWith('srv-a', expect.stringMatching(/\/mcp-oauth-callback$/)));
    await waitFor(() => expect(popup.close).toHaveBeenCalled());
    open.mockRestore();

    await fireEvent.click(within(signed).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(mcp.signOut).toHaveBeenCalledWith('srv-b'));
  });
});
