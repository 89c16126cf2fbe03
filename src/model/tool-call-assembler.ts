import type { ToolCall } from '../engine/records/index.ts';

/** The part of a streamed tool-call delta the assembler reads (structurally the SDK's chunk type). */
export interface ToolCallDelta {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Slot {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/**
 * Builds whole tool calls from streamed deltas. OpenAI sends the id and name
 * once, in a call's first delta, then pieces of the arguments under the same
 * `index`; parallel calls interleave by index.
 *
 * Two quirks of compatible endpoints are tolerated: a delta that repeats the
 * id (same call, keep appending) and one that reuses an index with a new id
 * (a new call: some gateways number every call 0).
 */
export class ToolCallAssembler {
  readonly #slots: Slot[] = [];

  constructor(
    /** Used when an endpoint omits ids; ids must be unique per conversation, so random. */
    private readonly newId: () => string = () => `call_${crypto.randomUUID()}`,
  ) {}

  add(delta: ToolCallDelta): void {
    let slot = this.#current(delta.index);
    if (!slot || (delta.id && slot.id && delta.id !== slot.id)) {
      slot = { index: delta.index, id: '', name: '', arguments: '' };
      this.#slots.push(slot);
    }
    if (delta.id && !slot.id) slot.id = delta.id;
    if (delta.function?.name && !slot.name) slot.name = delta.function.name;
    if (delta.function?.arguments) slot.arguments += delta.function.arguments;
  }

  /**
   * The calls in the order they started; arguments are the raw text, possibly
   * malformed JSON, except that none at all becomes `{}`: some endpoints send
   * nothing for a call without parameters, and that is not the model's mistake.
   */
  toolCalls(): ToolCall[] {
    return this.#slots.map((slot) => {
      slot.id ||= this.newId(); // kept, so asking twice gives the same ids
      return { id: slot.id, name: slot.name, arguments: slot.arguments.trim() === '' ? '{}' : slot.arguments };
    });
  }

  /** The latest call opened under this index. */
  #current(index: number): Slot | undefined {
    return this.#slots.findLast((slot) => slot.index === index);
  }
}
