// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import ConfirmDialog from './ConfirmDialog.svelte';

// ConfirmDialog on the skeleton every dialog shares (ModalDialog.svelte): its name, description, first focus,
// Escape and the focus it gives back are the skeleton's.
afterEach(() => {
  document.body.innerHTML = '';
});

function openWithOpener() {
  const opener = document.createElement('button');
  opener.textContent = 'Delete';
  document.body.append(opener);
  opener.focus();
  const onConfirm = vi.fn();
  render(ConfirmDialog, {
    props: { open: true, title: 'Delete “Plans”?', message: 'It cannot be undone.', confirmLabel: 'Delete conversation', danger: true, onConfirm },
  });
  return { opener, onConfirm };
}

describe('ConfirmDialog', () => {
  test('is named by its title, described by its message, and puts focus on Cancel, not on the destructive choice', async () => {
    openWithOpener();
    const dialog = screen.getByRole('dialog', { name: 'Delete “Plans”?' });
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('It cannot be undone.').id);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
  });

  test('Escape cancels: nothing confirmed, the dialog gone, focus back on what opened it', async () => {
    const { opener, onConfirm } = openWithOpener();
    await fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  test('its confirm button confirms once and gives focus back', async () => {
    const { opener, onConfirm } = openWithOpener();
    await fireEvent.click(screen.getByRole('button', { name: 'Delete conversation' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
