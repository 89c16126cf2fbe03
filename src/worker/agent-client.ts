import type { Decision } from '../engine/decision.ts';
import type { ApprovalRuleDraft } from '../engine/records/index.ts';
import type { DecideResult, WorkerEvent } from './protocol.ts';
import type { McpControl } from './mcp-control.ts';

/**
 * What the UI can ask of the agent. Every change to agent state goes through
 * here as an intent; what the user sees comes back through live queries on
 * IndexedDB, never through these return values (so other tabs see the same).
 */
export interface AgentClient {
  send(conversationId: string | null, text: string): Promise<{ conversationId: string }>;
  decide(pausePointId: string, decision: Decision): Promise<DecideResult>;
  stop(conversationId: string): Promise<void>;
  retry(conversationId: string): Promise<void>;
  createConversation(title?: string): Promise<{ conversationId: string }>;
  renameConversation(conversationId: string, title: string): Promise<void>;
  deleteConversation(conversationId: string): Promise<void>;
  /** Makes an approval rule from a draft (the engine fills in and checks the rest); rejects with the reason when it is refused. */
  addRule(draft: ApprovalRuleDraft): Promise<{ ruleId: string }>;
  /** Stores an allow rule made from a card, then decides that card: one intent, so the rule exists before the loop resumes. */
  approveWithRule(pausePointId: string, decision: Decision, draft: ApprovalRuleDraft): Promise<DecideResult>;
  removeRule(ruleId: string): Promise<void>;
  /** Turns on a rule that came back disabled from a backup. */
  enableRule(ruleId: string): Promise<void>;
  /** "Ask for everything": while on, no allow rule applies. */
  setAskForEverything(on: boolean): Promise<void>;
  /** Whether cards offer "Always allow" for calls their tool marks irreversible. */
  setAlwaysAllowIrreversible(on: boolean): Promise<void>;
  /** This tab's id, as recorded in `decidedBy.tabId` when this tab decides and as `owner` of the loops it runs. */
  readonly tabId: string;
  /**
   * Unprompted news from the agent (an approval was requested). Optional: a
   * client without it simply raises no alerts. Returns the unsubscribe.
   */
  onEvent?(listener: (event: WorkerEvent) => void): () => void;
  /** MCP servers (Settings › MCP servers). Optional: a client without it shows no MCP section. */
  readonly mcp?: McpControl;
}
