import { describe, expect, it } from 'vitest';
import { describeSignatures } from './describe-signatures.ts';

describe('describeSignatures', () => {
  it('says how many decisions a listed device signed, and names those it cannot attribute', () => {
    expect(describeSignatures({ verified: 1, failed: [], unlisted: [], unsigned: [] })).toBe('Signatures: 1 decision signed by a device this file lists.');
    expect(describeSignatures({ verified: 3, failed: [], unlisted: [{ index: 1, id: 'pp-2', reason: '' }], unsigned: ['pp-0', 'pp-9'] })).toBe(
      'Signatures: 3 decisions signed by a device this file lists; 1 decision signed by a device it does not list (pp-2); 2 decisions unsigned, made before decisions were signed.',
    );
  });
});
