import { z } from 'zod';
import type { ToolDefinition, ToolSpec } from './ports.ts';

/**
 * Tools by name. Names come from the model, so lookups are own-property only
 * on a prototype-free map: a call named `constructor` or `__proto__` is simply unknown.
 */
export class ToolRegistry {
  readonly #byName = new Map<string, ToolDefinition>();
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
  }

  get(name: string): ToolDefinition | undefined {
    return this.#byName.get(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }
}
