import type { Decision } from './decision.ts';
import { checkForm } from './check-form.ts';
import { formFields } from './form-schema.ts';
import { describeIssues } from './parse-call.ts';
import type { PausePoint } from './records/index.ts';
import { resolveDecision, type Resolution } from './resolve-decision.ts';
import type { ToolRegistry } from './tool-registry.ts';

export type CheckedDecision = ({ ok: true } & Resolution) | { ok: false; message: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a decision fits the card it answers, and what it resolves to.
 * Runs inside the compare-and-set, on the pause point as that transaction read
 * it, so an invalid decision never resolves anything. It must stay synchronous:
 * an IndexedDB transaction commits as soon as its callback awaits anything else.
 */
export function validateDecision(pause: PausePoint, decision: Decision, tools: ToolRegistry): CheckedDecision {
  const fail = (message: string): CheckedDecision => ({ ok: false, message });

  switch (decision.type) {
    case 'decline':
      if (pause.origin === 'unknown_outcome') return fail('Choose Run again, Treat as done or Skip.');
      return { ok: true, ...resolveDecision(pause, decision) };

    case 'choose':
      if (!pause.options?.includes(decision.option)) return fail(`"${decision.option}" is not one of this card's options.`);
      return { ok: true, ...resolveDecision(pause, decision) };

    case 'submit': {
      if (pause.kind !== 'data_entry') return fail('Only a data entry card takes form data.');
      const check = checkForm(formFields(pause.payload), decision.data);
      if (!check.ok) return fail(Object.values(check.errors).join(' '));
      // The form's data as checked (numbers read as numbers), not as typed.
      return { ok: true, ...resolveDecision(pause, { type: 'submit', data: check.data }) };
    }

    case 'approve': {
      if (pause.kind !== 'approval') return fail(`A ${pause.kind} card is answered with ${pause.kind === 'choice' ? 'one of its options' : 'its form'}.`);
      if (decision.editedPayload === undefined) return { ok: true, ...resolveDecision(pause, decision) };
      if (pause.payload === null) return fail('This card has no payload to edit.');
      if (!isPlainObject(decision.editedPayload)) return fail('The edited payload must be a JSON object.');
      if (pause.origin === 'gate') {
        const tool = tools.get(pause.toolName);
        const parsed = tool?.input.safeParse(decision.editedPayload);
        if (!parsed?.success) {
          return fail(`The edited arguments do not fit ${pause.toolName}: ${parsed ? describeIssues(parsed.error) : 'unknown tool'}.`);
        }
      }
      return { ok: true, ...resolveDecision(pause, decision) };
    }
  }
}
