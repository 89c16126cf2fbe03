import type { AttachmentsPort } from './attachments-port.ts';
import type { ClockPort } from './clock-port.ts';
import type { DevicesPort } from './devices-port.ts';
import type { IdPort } from './id-port.ts';
import type { LockPort } from './lock-port.ts';
import type { ModelPort } from './model-port.ts';
import type { NetworkPort } from './network-port.ts';
import type { RulesPort } from './rules-port.ts';
import type { SettingsPort } from './settings-port.ts';
import type { SignerPort } from './signer-port.ts';
import type { StoragePort } from './storage-port.ts';
import type { TabsPort } from './tabs-port.ts';
import type { ToolDefinition } from './tool-definition.ts';
import type { PausePoint } from './records/index.ts';

export interface EngineOptions {
  storage: StoragePort;
  /**
   * The user's approval rules, read for every call before the tool's own gate.
   * None: no rules (every call goes to its gate, and `addRule` is refused).
   */
  rules?: RulesPort;
  /**
   * Asked before each model call, so changed settings apply to the next call.
   * `alongside` is what storage read with the step that makes the call
   * (`StepRecords.alongside`), when that step was read rather than carried
   * on from the one before: a host may build the model from it instead of
   * reading its settings again.
   */
  model: (alongside?: unknown) => ModelPort | Promise<ModelPort>;
  tools: readonly ToolDefinition[];
  /** The bytes of the files user messages name, read for each model call. None: every attachment is said to be missing. */
  attachments?: AttachmentsPort;
  /**
   * Tools that come and go while the engine runs (MCP servers' tools), read
   * at every step: return the same array until they change. They never
   * shadow a tool of `tools`.
   */
  dynamicTools?: () => readonly ToolDefinition[];
  clock: ClockPort;
  ids: IdPort;
  network: NetworkPort;
  locks: LockPort;
  /** The other tabs, asked to stop a run this tab does not hold. None: only this tab's runs are stopped. */
  tabs?: TabsPort;
  /** This tab's id: recorded as the owner of the runs it drives. */
  owner: string;
  /** Model calls allowed in one run before it stops and offers Continue. */
  maxSteps?: number;
  /** The user's settings, read when needed; without it pause points never expire. */
  settings?: SettingsPort;
  /**
   * The person's other devices (src/sync): which conversations run here, and
   * the sync server's claim on every decision. None: this browser only.
   */
  devices?: DevicesPort;
  /**
   * This device's signing key: every decision made here (a person's, a
   * rule's, an expiry's) is signed with it before its compare-and-set, and
   * the signature stored on the pause point. None: decisions are unsigned.
   */
  signer?: SignerPort;
  /** Told about every new pause point (notifications, badge). */
  onPause?: (pausePoint: PausePoint) => void;
  /** Told about every failure of a background run: an `UnrecordedFailure` when not even its error state could be stored. */
  onError?: (error: unknown, conversationId: string) => void;
}

export const DEFAULT_MAX_STEPS = 16;
/** How often streamed text is written to storage: often enough to look live, rarely enough to stay cheap. */
export const STREAM_WRITE_INTERVAL_MS = 120;

export function lockName(conversationId: string): string {
  return `pausepoint:conversation:${conversationId}`;
}
