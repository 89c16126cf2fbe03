// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import VerifyAuditFile from './VerifyAuditFile.svelte';

/** A chosen file that says it is `size` bytes long, and records whether anything read it. */
function bigFile(size: number) {
  const file = new File(['{}'], 'pausepoint-audit-2026-01-31.json', { type: 'application/json' });
  Object.defineProperty(file, 'size', { value: size });
  const read = vi.fn(async () => '{}');
  Object.defineProperty(file, 'text', { value: read });
  Object.defineProperty(file, 'stream', { value: read });
  Object.defineProperty(file, 'arrayBuffer', { value: read });
  return { file, read };
}

describe('VerifyAuditFile', () => {
  it('states the size limit', () => {
    render(VerifyAuditFile);
    expect(screen.getByText('Audit files of up to 200 MB can be verified.')).toBeTruthy();
  });

  it('refuses a file over 200 MB with a clear message, without reading it', async () => {
    render(VerifyAuditFile);
    const { file, read } = bigFile(200_000_001);
    const input = screen.getByLabelText('Audit file to verify') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await fireEvent.change(input);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Not verified (pausepoint-audit-2026-01-31.json): This file is 200.0 MB; Pausepoint verifies audit files of up to 200 MB, so it was not read.',
    );
    expect(read).not.toHaveBeenCalled();
  });

  it('reads a file at the limit', async () => {
    render(VerifyAuditFile);
    const { file, read } = bigFile(200_000_000);
    const input = screen.getByLabelText('Audit file to verify') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await fireEvent.change(input);

    const alert = await screen.findByRole('alert');
    expect(read).toHaveBeenCalledOnce();
    expect(alert.textContent).toMatch(/not a Pausepoint audit log/);
  });
});
