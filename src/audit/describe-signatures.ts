import type { SignatureReport } from './check-signatures.ts';

const decisions = (n: number) => `${n} ${n === 1 ? 'decision' : 'decisions'}`;

/** What a verified version 4 file's signatures came to, in one sentence for the person who chose the file. */
export function describeSignatures({ verified, unlisted, unsigned }: SignatureReport): string {
  const parts = [`${decisions(verified)} signed by a device this file lists`];
  if (unlisted.length > 0) parts.push(`${decisions(unlisted.length)} signed by a device it does not list (${unlisted.map((u) => u.id).join(', ')})`);
  if (unsigned.length > 0) parts.push(`${decisions(unsigned.length)} unsigned, made before decisions were signed`);
  return `Signatures: ${parts.join('; ')}.`;
}
