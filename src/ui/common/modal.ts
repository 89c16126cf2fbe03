import { tick } from 'svelte';

/*
 * What every dialog of the app does with its <dialog>: a native modal where the
 * browser has one (it makes the rest of the page inert and keeps focus inside),
 * a plain open dialog elsewhere (jsdom in tests), and focus given back to where
 * it was once the dialog closes.
 */

/** Opens `dialog`, then focuses what `first` names once it shows. */
export function openModal(dialog: HTMLDialogElement, first?: () => HTMLElement | undefined): void {
  if (dialog.open) return;
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  void tick().then(() => first?.()?.focus());
}

export function closeModal(dialog: HTMLDialogElement | undefined): void {
  if (typeof dialog?.close === 'function') dialog.close();
  else dialog?.removeAttribute('open');
}

/** Notes where focus is now; the function it returns gives focus back there, if that element is still on the page. */
export function focusReturner(): () => void {
  const target = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return () =>
    void tick().then(() => {
      if (target?.isConnected) target.focus();
    });
}
