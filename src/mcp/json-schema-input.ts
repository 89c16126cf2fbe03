import { Validator, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { z } from 'zod';

const MAX_ISSUES = 6;

/** The draft a schema declares in `$schema`; MCP's default is 2020-12. */
function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

export interface SchemaIssue {
  /** Where in the value, as a JSON pointer (`/a/0`), empty for the value itself. */
  pointer: string;
  message: string;
}

/**
 * A JSON Schema checker that never compiles code (no `eval`, no `new
 * Function`: the app's Content-Security-Policy forbids them), so a server's
 * schema can be enforced inside the worker. Every issue is reported, the
 * wrappers ("property x does not match schema") dropped for the specific ones.
 */
export function jsonSchemaChecker(schema: Record<string, unknown>): (value: unknown) => SchemaIssue[] {
  const validator = new Validator(schema as Schema, draftOf(schema), false);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return [];
    const locations = result.errors.map((error) => error.keywordLocation);
    // A wrapper's keyword location is a prefix of the specific errors under it; a `false` schema repeats its parent's.
    const wrapper = (at: string) => locations.some((other) => other.startsWith(`${at}/`));
    return result.errors
      .filter((error) => !wrapper(error.keywordLocation) && error.keyword !== 'false')
      .map((error) => ({ pointer: error.instanceLocation.replace(/^#/, ''), message: error.error }));
  };
}

export function describeSchemaIssues(issues: readonly SchemaIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => (issue.pointer ? `${issue.pointer.slice(1).replaceAll('/', '.')}: ${issue.message}` : issue.message));
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return shown.join('; ') + more;
}

/**
 * A tool's input as zod sees it: any JSON object, checked against the
 * server's JSON Schema. So the engine's own checks (a model's call, an edit
 * on the card) enforce the server's schema, with messages the model and the
 * user can act on, without a zod translation of every JSON Schema feature.
 */
export function inputFromJsonSchema(schema: Record<string, unknown>) {
  const check = jsonSchemaChecker(schema);
  return z.looseObject({}).superRefine((value, ctx) => {
    const issues = check(value);
    if (issues.length === 0) return;
    // One issue carrying the whole description: the engine shows the first few issues' messages.
    ctx.addIssue({ code: 'custom', message: `does not match the server's input schema: ${describeSchemaIssues(issues)}` });
  });
}
