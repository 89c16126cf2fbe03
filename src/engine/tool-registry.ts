import { z } from 'zod';
import { definitionHash } from './definition-hash.ts';
import type { ToolDefinition, ToolSpec } from './ports.ts';

/**
 * Tools by name. Names come from the model, so lookups are own-property only
 * on a prototype-free map: a call named `constructor` or `__proto__` is simply unknown.
 */
export class ToolRegistry {
  readonly #byName = new Map<string, ToolDefinition>();
  readonly #specs = new Map<string, ToolSpec>();
  /** The promise, not its value: two calls that ask at once share one digest. */
  readonly #hashes = new Map<string, Promise<string>>();
  readonly specs: ToolSpec[];

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) {
      if (this.#byName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`);
      this.#byName.set(tool.name, tool);
    }
    this.specs = tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters ?? (z.toJSONSchema(tool.input) as Record<string, unknown>),
      },
    }));
    for (const spec of this.specs) this.#specs.set(spec.function.name, spec);
  }

  /**
   * The hash of a tool's definition as the model gets it (name, description,
   * JSON Schema; see definition-hash.ts), or undefined for no such tool.
   */
  definitionHash(name: string): Promise<string> | undefined {
    const cached = this.#hashes.get(name);
    if (cached) return cached;
    const spec = this.#specs.get(name);
    if (!spec) return undefined;
    const hash = definitionHash(spec.function);
    this.#hashes.set(name, hash);
    // A failed digest is not kept: the next call asks again.
    hash.catch(() => this.#hashes.delete(name));
    return hash;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#byName.get(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }
}
