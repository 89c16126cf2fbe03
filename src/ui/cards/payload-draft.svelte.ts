import { parsePayload, payloadDiff, type PayloadChange, type ParsedPayload } from './payload-diff.ts';

/** The payload editor's text, parsed as it is typed, and how it differs from what was proposed. */
export class PayloadDraft {
  readonly proposed: unknown;
  text = $state('');
  readonly parsed: ParsedPayload = $derived(parsePayload(this.text));
  readonly changes: PayloadChange[] = $derived.by(() => (this.parsed.ok ? payloadDiff(this.proposed, this.parsed.value) : []));

  constructor(proposed: unknown) {
    this.proposed = proposed;
    this.text = JSON.stringify(proposed, null, 2) ?? '';
  }

  /** The payload to send as `editedPayload`: only when valid and changed. */
  get edited(): Record<string, unknown> | undefined {
    return this.parsed.ok && this.changes.length > 0 ? this.parsed.value : undefined;
  }

  reset(): void {
    this.text = JSON.stringify(this.proposed, null, 2) ?? '';
  }
}
