import { expect } from 'vitest';
import type { Decision } from '../../engine/decision.ts';

/** A decision as a surface sends it: bound to the view it showed (a `viewHash`; engine-view-binding.test.ts checks what it binds). */
export function bound(decision: Decision): Decision {
  return { ...decision, viewHash: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown as string };
}
