// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import Composer from '../conversation/Composer.svelte';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import OpenLinkDialog from './OpenLinkDialog.svelte';
import { confirmOpenLink, proposeMessageFromView, type ViewLink } from './view-requests.ts';

afterEach(() => {
  localStorage.clear();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function renderComposer() {
  const fake = fakeContext();
  render(Composer, { props: { conversationId: 'c1', pendingApprovals: 0, busy: false, onSent: vi.fn() }, context: fake.context });
  return { ...fake, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

const message = (text: string) => ({ conversationId: 'c1', viewCallId: 'call_view', serverName: 'Budget', role: 'user' as const, content: [{ type: 'text', text }] });

describe('ui/message: a view’s words wait for the person’s Send', () => {
  test('goes into the message box marked as the view’s, and is sent only on Send', async () => {
    const { client, box } = renderComposer();
    await fireEvent.input(box, { target: { value: 'My own words' } });
    expect(await proposeMessageFromView(message('Spend 40 on food'))).toEqual({ outcome: 'proposed' });
    await waitFor(() => expect(box.value).toBe('My own words\n\nSpend 40 on food'));
    expect(screen.getByText('Words from the view of Budget: read them, then Send.')).toBeTruthy();
    expect(client.send).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(client.send).toHaveBeenCalledWith('c1', 'My own words\n\nSpend 40 on food');
    await waitFor(() => expect(screen.queryByText(/Words from the view/)).toBeNull());
  });

  test('refuses what is not the person’s text', async () => {
    expect(await proposeMessageFromView({ ...message('x'), role: 'assistant' as 'user' })).toMatchObject({ outcome: 'refused' });
    expect(await proposeMessageFromView({ ...message('x'), content: [{ type: 'image', text: undefined }] })).toMatchObject({ outcome: 'refused' });
    expect(await proposeMessageFromView(message('x'.repeat(20_001)))).toMatchObject({ outcome: 'refused' });
  });
});

describe('ui/open-link: opens only after a confirmation naming the URL', () => {
  // As McpAppView asks: OpenLinkDialog on screen until the person answers, then gone.
  const askInDialog = (link: ViewLink) =>
    new Promise<boolean>((resolve) => {
      const shown = render(OpenLinkDialog, { props: { ...link, onDone: (open: boolean) => (shown.unmount(), resolve(open)) } });
    });

  test('names the whole URL, and opens it in a new tab only on Open link', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const answer = confirmOpenLink({ url: 'https://example.org/receipt?id=7', serverName: 'Budget' }, askInDialog);
    const dialog = await screen.findByRole('dialog', { name: 'Open this link?' });
    expect(dialog.textContent).toContain('https://example.org/receipt?id=7');
    expect(dialog.textContent).toContain('The interactive view of Budget asks to open this address in a new tab');
    expect(opened).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole('button', { name: 'Open link' }));
    await expect(answer).resolves.toEqual({ outcome: 'opened' });
    expect(opened).toHaveBeenCalledWith('https://example.org/receipt?id=7', '_blank', 'noopener,noreferrer');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('Cancel opens nothing', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const answer = confirmOpenLink({ url: 'http://example.org/', serverName: 'Budget' }, askInDialog);
    await fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toEqual({ outcome: 'declined' });
    expect(opened).not.toHaveBeenCalled();
  });

  test('refuses anything but http and https, without asking', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'not a url']) {
      expect(await confirmOpenLink({ url, serverName: 'Budget' }, askInDialog)).toEqual({ outcome: 'refused', reason: 'Only http and https links are opened.' });
    }
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
