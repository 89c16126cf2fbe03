import { z } from 'zod';
import { approvalMarker } from './marker.ts';
import type { PauseKind } from './records/index.ts';
import type { ToolDefinition } from './tool-definition.ts';

export const WAIT_FOR_APPROVAL = 'wait_for_approval';

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 20_000;
const OPTION_MAX = 200;
const OPTIONS_KEPT = 8;

/**
 * Deliberately loose: a wrong type must become a readable error string for the
 * model (below), never a zod failure that hides which field was wrong.
 */
const input = z.object({
  title: z.unknown().optional(),
  description: z.unknown().optional(),
  options: z.unknown().optional(),
  payload: z.unknown().optional(),
  kind: z.unknown().optional(),
});

/** What the model sees: the contract's five fields, two of them required. */
const parameters = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'Short headline for the card (at most 80 characters).' },
    description: {
      type: 'string',
      description: 'Markdown. Everything the user needs to decide: counts, amounts, recipients, reversibility, side effects.',
    },
    options: { type: 'array', items: { type: 'string' }, description: 'Up to 8 explicit choices instead of approve/decline.' },
    payload: {
      type: 'object',
      description: 'Structured data the user may edit before approving; for data_entry, a JSON Schema object describing the form.',
    },
    kind: { type: 'string', enum: ['approval', 'choice', 'data_entry'], description: 'Defaults to approval, or choice when options are given.' },
  },
  required: ['title', 'description'],
} as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function pauseKind(requested: unknown, hasOptions: boolean): PauseKind {
  if (requested === 'approval' || requested === 'choice' || requested === 'data_entry') {
    // A choice without options cannot be answered: fall back to approve/decline.
    return requested === 'choice' && !hasOptions ? 'approval' : requested;
  }
  return hasOptions ? 'choice' : 'approval';
}

export const waitForApproval: ToolDefinition<typeof input> = {
  name: WAIT_FOR_APPROVAL,
  description:
    'Pause and ask the user for explicit approval BEFORE any action with real-world consequences ' +
    '(sending messages, spending money, deleting data, publishing, scheduling with other people). ' +
    'Never after the action. Pause once per unit of work, not for every step.',
  input,
  parameters,
  // Re-running it finds the pause point it already made (see `pause`): no duplicate card.
  safeToRetry: () => true,
  async execute(args, context) {
    const title = text(args.title).slice(0, TITLE_MAX);
    const description = text(args.description).slice(0, DESCRIPTION_MAX);
    if (!title || !description) {
      return 'Error: both title and description are required (non-empty strings). No approval was requested; call wait_for_approval again with both.';
    }
    const options = Array.isArray(args.options)
      ? args.options.filter((o): o is string => typeof o === 'string' && o.trim() !== '').slice(0, OPTIONS_KEPT).map((o) => o.slice(0, OPTION_MAX))
      : [];
    const payload = typeof args.payload === 'object' && args.payload !== null && !Array.isArray(args.payload) ? args.payload : null;
    const kind = pauseKind(args.kind, options.length > 0);
    const id = await context.pause({ title, description, options: options.length > 0 ? options : null, payload, kind });
    return approvalMarker(id);
  },
};
