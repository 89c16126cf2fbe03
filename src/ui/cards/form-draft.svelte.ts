import { SvelteMap } from 'svelte/reactivity';
import { checkForm, type FormCheck } from '../../engine/check-form.ts';
import { formFields, type FormField } from '../../engine/form-schema.ts';

/**
 * A data entry card's form: the fields the engine derives from the payload,
 * the values as typed (strings from inputs, booleans from checkboxes), and the
 * engine's own check of them, so the card refuses exactly what the engine would.
 * Field names come from the model: values live in a Map, never as keys of a
 * plain object where `__proto__` would mean something.
 */
export class FormDraft {
  readonly fields: readonly FormField[];
  readonly values = new SvelteMap<string, string | boolean>();
  /** Errors are shown once the user has tried to submit, not while they first type. */
  attempted = $state(false);
  readonly check: FormCheck = $derived.by(() => checkForm(this.fields, Object.fromEntries(this.values)));

  constructor(payload: unknown) {
    this.fields = formFields(payload);
    for (const field of this.fields) {
      this.values.set(field.name, field.type === 'boolean' ? field.initial === true : field.initial === undefined ? '' : String(field.initial));
    }
  }

  errorFor(name: string): string | undefined {
    if (!this.attempted || this.check.ok) return undefined;
    return Object.hasOwn(this.check.errors, name) ? this.check.errors[name] : undefined;
  }
}
