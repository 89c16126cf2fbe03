import { mcpAnnotationRisk } from '../engine/risk-label.ts';
import type { GateQuestion, ToolContext, ToolDefinition } from '../engine/tool-definition.ts';
import { describeChange, hasChanged, isListed } from './definition-pin.ts';
import { inputFromJsonSchema } from './json-schema-input.ts';
import { codeBlock, codeSpan } from './markdown-literal.ts';
import type { McpServerRecord, McpToolRecord } from '../storage/records/mcp-server-record.ts';
import { annotationLabels, effectiveAnnotations } from './tool-annotations.ts';
import { titleName } from './title-name.ts';
import { assignToolNames } from './tool-names.ts';

const MAX_DESCRIPTION = 1_500;

/**
 * Runs one call of a tool on its server; the hub's side of an MCP tool.
 * `definitionHash` is the definition the call was decided on (the tool's
 * `hash` when this engine tool was made): the hub runs it only while the
 * server's stored listing still has it.
 */
export type McpCaller = (serverId: string, toolName: string, definitionHash: string, args: Record<string, unknown>, context: ToolContext) => Promise<string>;

/** The hub's side of a call its server runs as a task (MCP's Tasks extension): its end read back, and its cancellation. */
export interface McpTaskCalls {
  follow(serverId: string, toolName: string, taskId: string, context: ToolContext): Promise<string>;
  cancel(serverId: string, taskId: string): Promise<void>;
}

export function serverLabel(server: Pick<McpServerRecord, 'name' | 'url'>): string {
  return server.name?.trim() || new URL(server.url).host;
}

/** A read-only tool runs unasked only on a server the user trusts, and only while its definition is the one pinned. */
export function runsUnasked(server: McpServerRecord, tool: McpToolRecord): boolean {
  return server.trusted && effectiveAnnotations(tool.definition.annotations).readOnly && !hasChanged(tool);
}

/**
 * An MCP tool as the engine sees it: the server's JSON Schema enforced as its
 * input, every call gated unless `runsUnasked`, and never retried after a
 * crash unless it could have run unasked. The card says which server, which
 * tool, what the server claims about it, its definition hash, and what
 * changed since the definition the user last approved.
 *
 * The model is offered the pinned definition (its description and schema)
 * until the user approves a call of a changed one: a server's new words reach
 * the model only once a person has seen them. The definition hash covers the
 * definition as listed now (`sourceDefinition`), so a rule or card made for
 * the pinned one does not carry over to the change.
 */
export function mcpToolDefinition(name: string, server: McpServerRecord, tool: McpToolRecord, call: McpCaller, tasks?: McpTaskCalls): ToolDefinition {
  const { definition } = tool;
  const offered = tool.pinned.definition;
  const label = serverLabel(server);
  const summary = [offered.title, offered.description].filter(Boolean).join(': ') || offered.name;
  const description = `${summary.length > MAX_DESCRIPTION ? `${summary.slice(0, MAX_DESCRIPTION)}…` : summary} (tool ${offered.name} of the MCP server ${label}; each call is shown to the user first)`;
  const { $schema: _ignored, ...parameters } = offered.inputSchema;
  return {
    name,
    description,
    input: inputFromJsonSchema(offered.inputSchema),
    parameters: { type: 'object', properties: {}, ...parameters },
    sourceDefinition: { ...definition },
    definitionChanged: hasChanged(tool),
    gate: () => (runsUnasked(server, tool) ? null : question(server, tool)),
    safeToRetry: () => runsUnasked(server, tool),
    // A changed definition's annotations are claims the person has not seen yet: read as from an untrusted server.
    risk: () => mcpAnnotationRisk(definition.annotations, server.trusted && !hasChanged(tool)),
    mcp: { serverId: server.id, serverUrl: server.url, serverName: label, toolName: definition.name, definitionHash: tool.hash },
    // Who may call it as the person accepted it (the pinned definition, as the model's offer): a server that
    // hands an app-only tool to the model reaches the model only once a call of the change is approved.
    ...(offered.visibility ? { visibility: offered.visibility } : {}),
    // `input` admits only JSON objects.
    execute: (args, context) => call(server.id, definition.name, tool.hash, args as Record<string, unknown>, context),
    ...(tasks
      ? {
          followTask: (taskId: string, _args: unknown, context: ToolContext) => tasks.follow(server.id, definition.name, taskId, context),
          cancelTask: (taskId: string) => tasks.cancel(server.id, taskId),
        }
      : {}),
  };
}

/**
 * The enabled tools of the enabled servers as engine tools, under the names
 * the model calls them by. Names are assigned over every listed tool, enabled
 * or not, so switching one off renames nothing; a tool left without a name
 * (tool-names.ts) is not offered.
 */
export function mcpTools(servers: readonly McpServerRecord[], reserved: ReadonlySet<string>, call: McpCaller, tasks?: McpTaskCalls): ToolDefinition[] {
  const all = servers.flatMap((server) => server.tools.filter(isListed).map((tool) => ({ server, tool })));
  const names = assignToolNames(
    all.map(({ server, tool }) => ({ serverId: server.id, prefix: server.prefix, toolName: tool.definition.name })),
    reserved,
  );
  const byTool = new Map([...names].map(([name, t]) => [`${t.serverId}\u0000${t.toolName}`, name]));
  return all.flatMap(({ server, tool }) => {
    const name = byTool.get(`${server.id}\u0000${tool.definition.name}`);
    return server.enabled && tool.enabled && name !== undefined ? [mcpToolDefinition(name, server, tool, call, tasks)] : [];
  });
}

function question(server: McpServerRecord, tool: McpToolRecord): GateQuestion {
  const { definition } = tool;
  const label = serverLabel(server);
  const a = effectiveAnnotations(definition.annotations);
  const lines = [
    `**Server:** ${codeSpan(label)} at ${codeSpan(server.url)}${server.trusted ? ' (trusted by you)' : ' (not trusted: what it says about its tools is a hint, not a promise)'}`,
    `**Tool:** ${codeSpan(definition.name)}${definition.description ? ` — ${codeSpan(definition.description.slice(0, 300))}` : ''}`,
    `**Annotations:** ${annotationLabels(definition.annotations).join(', ')}`,
  ];
  if (a.destructive) lines.push('**Destructive:** the server does not say this tool is harmless; it may delete or overwrite data. Check the arguments.');
  lines.push(`**Definition hash:** ${codeSpan(tool.hash)}`);
  if (hasChanged(tool)) {
    lines.push(
      `**This tool changed since you last allowed it** (definition ${codeSpan(tool.pinned.hash.slice(0, 12))} → ${codeSpan(tool.hash.slice(0, 12))}). What changed:`,
      codeBlock(describeChange(tool.pinned.definition, definition).join('\n') || '(only its hash)'),
    );
  }
  lines.push('The arguments below are what the assistant proposes; edit them before approving if needed.');
  return { title: `Call ${titleName(definition.name)} on ${titleName(label)}`, description: lines.join('\n\n') };
}
