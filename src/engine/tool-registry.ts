import { z } from 'zod';
import { definitionHash } from './definition-hash.ts';
import type { ToolSpec } from './model-port.ts';
import { offeredTo } from './parse-call.ts';
import type { ToolDefinition } from './tool-definition.ts';

/**
 * Tools by name. Names come from the model, so lookups are own-property only
 * on a prototype-free map: a call named `constructor` or `__proto__` is simply unknown.
 *
 * Some tools come and go while the engine lives (an MCP server connects, a
 * tool is switched off or its server changes it): `dynamic` is read at every
 * lookup and must return the same array until its tools change, so the
 * registry rebuilds (specs and definition hashes) only then. A dynamic tool
 * never shadows a fixed one: a name the fixed tools hold stays theirs.
 */
export class ToolRegistry {
  readonly #fixed: readonly ToolDefinition[];
  readonly #dynamic: () => readonly ToolDefinition[];
  #built: Built | undefined;

  constructor(tools: readonly ToolDefinition[], dynamic: () => readonly ToolDefinition[] = () => NONE) {
    const names = new Set<string>();
    for (const tool of tools) {
      if (names.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`);
      names.add(tool.name);
    }
    this.#fixed = tools;
    this.#dynamic = dynamic;
  }

  /** What is sent to the model: every tool's name, description and JSON Schema, but those only an app's view may call. */
  get specs(): ToolSpec[] {
    return this.#current().modelSpecs;
  }

  /**
   * The hash of a tool's definition: as the model gets it (name, description,
   * JSON Schema) and as its source has it (`sourceDefinition`; see
   * definition-hash.ts), or undefined for no such tool.
   * A tool whose definition changes gets a new hash with the rebuilt registry.
   */
  definitionHash(name: string): Promise<string> | undefined {
    const { hashes, bySpec, byName } = this.#current();
    const cached = hashes.get(name);
    if (cached) return cached;
    const spec = bySpec.get(name);
    if (!spec) return undefined;
    const hash = definitionHash({ ...spec.function, sourceDefinition: byName.get(name)?.sourceDefinition });
    hashes.set(name, hash);
    // A failed digest is not kept: the next call asks again.
    hash.catch(() => hashes.delete(name));
    return hash;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#current().byName.get(name);
  }

  /** The names the model may call (as `specs`). */
  names(): string[] {
    return this.#current().modelSpecs.map((spec) => spec.function.name);
  }

  /** The tools of every kind, the app-only ones too (call-from-view.ts finds a view's tool among them). */
  all(): IterableIterator<ToolDefinition> {
    return this.#current().byName.values();
  }

  #current(): Built {
    const from = this.#dynamic();
    if (this.#built?.from === from) return this.#built;
    const byName = new Map<string, ToolDefinition>();
    for (const tool of [...this.#fixed, ...from]) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    const specs: ToolSpec[] = [...byName.values()].map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters ?? (z.toJSONSchema(tool.input) as Record<string, unknown>),
      },
    }));
    // An app-only tool keeps its spec (its definition hash is made from it, for rules and cards) but is not the model's.
    const modelSpecs = specs.filter((spec) => offeredTo(byName.get(spec.function.name) ?? {}, 'model'));
    this.#built = { from, byName, specs, modelSpecs, bySpec: new Map(specs.map((spec) => [spec.function.name, spec])), hashes: new Map() };
    return this.#built;
  }
}

interface Built {
  /** The dynamic tools this was built from. */
  from: readonly ToolDefinition[];
  byName: Map<string, ToolDefinition>;
  specs: ToolSpec[];
  /** `specs` without the tools only an app's view may call. */
  modelSpecs: ToolSpec[];
  bySpec: Map<string, ToolSpec>;
  /** The promise, not its value: two calls that ask at once share one digest. */
  hashes: Map<string, Promise<string>>;
}

const NONE: readonly ToolDefinition[] = Object.freeze([]);
