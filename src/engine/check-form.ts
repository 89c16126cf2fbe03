import type { FormField } from './form-schema.ts';

/*
 * Apart from the fields (form-schema.ts): the page checks a submission only on a
 * pending form's card, which loads this on demand, while every decided form's
 * card reads its fields' labels at start-up.
 */

export type FormCheck =
  | { ok: true; data: Record<string, string | number | boolean> }
  | { ok: false; errors: Record<string, string> };

/** Checks (and coerces form strings in) submitted data against the fields. Unknown keys are dropped. */
export function checkForm(fields: readonly FormField[], submitted: Record<string, unknown>): FormCheck {
  const data: Record<string, string | number | boolean> = Object.create(null);
  const errors: Record<string, string> = Object.create(null);
  for (const field of fields) {
    const raw = Object.hasOwn(submitted, field.name) ? submitted[field.name] : undefined;
    const empty = raw === undefined || raw === null || raw === '';
    if (empty) {
      if (field.required && field.type !== 'boolean') errors[field.name] = `${field.label} is required.`;
      else if (field.type === 'boolean') data[field.name] = false;
      continue;
    }
    const result = coerce(field, raw);
    if (result.ok) data[field.name] = result.value;
    else errors[field.name] = result.error;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors: { ...errors } } : { ok: true, data: { ...data } };
}

type Coerced = { ok: true; value: string | number | boolean } | { ok: false; error: string };

function coerce(field: FormField, raw: unknown): Coerced {
  switch (field.type) {
    case 'boolean':
      return { ok: true, value: raw === true || raw === 'true' || raw === 'on' };
    case 'number':
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(n)) return { ok: false, error: `${field.label} must be a number.` };
      if (field.type === 'integer' && !Number.isInteger(n)) return { ok: false, error: `${field.label} must be a whole number.` };
      return { ok: true, value: n };
    }
    case 'enum': {
      const text = String(raw);
      if (field.options?.includes(text)) return { ok: true, value: text };
      return { ok: false, error: `${field.label} must be one of: ${field.options?.join(', ')}.` };
    }
    case 'string':
      return { ok: true, value: String(raw) };
  }
}
