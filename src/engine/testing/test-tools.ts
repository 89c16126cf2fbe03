import { z } from 'zod';
import { OutcomeUnknown } from '../errors.ts';
import type { ToolContext, ToolDefinition } from '../tool-definition.ts';

const input = z.object({ text: z.string().default('') });

/** An ungated tool that returns what `output` makes of its input: a fetched page, an API's answer. */
export function readTool(name: string, output: (text: string) => string): ToolDefinition {
  return {
    name,
    description: `Reads ${name}.`,
    input,
    safeToRetry: () => true,
    async execute(args) {
      return output(args.text);
    },
  } satisfies ToolDefinition<typeof input>;
}

/**
 * A tool whose every run is decided by the test: `behave` gets the run's
 * number (from 1) and its context, and returns the result or throws, as a real
 * tool would (OutcomeUnknown after a timeout, the signal's reason after a Stop).
 */
export function scriptedTool(
  name: string,
  behave: (run: number, args: { text: string }, context: ToolContext) => Promise<string>,
  options: { safeToRetry?: boolean; gated?: boolean } = {},
): ToolDefinition & { readonly runs: { text: string }[] } {
  const runs: { text: string }[] = [];
  const tool = {
    name,
    description: `Acts: ${name}.`,
    input,
    runs,
    safeToRetry: () => options.safeToRetry ?? false,
    ...(options.gated ? { gate: (args: { text: string }) => ({ title: `Run ${name} with “${args.text}”?`, description: 'It acts.' }) } : {}),
    async execute(args: { text: string }, context: ToolContext) {
      runs.push(args);
      return behave(runs.length, args, context);
    },
  } satisfies ToolDefinition<typeof input> & { runs: { text: string }[] };
  return tool;
}

/** What a tool that sent its request but never heard back throws. */
export const sentButNoAnswer = () => Promise.reject(new OutcomeUnknown('The request was sent but no answer came back within 30 s.'));

/** Runs until the run's signal is aborted (the user pressed Stop), then fails with its reason, as fetch does. */
export function untilStopped(_run: number, _args: unknown, context: ToolContext): Promise<string> {
  return new Promise((_, reject) => {
    context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true });
  });
}
