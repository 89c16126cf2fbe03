import type { AskWaiters } from './ask-while-running.ts';
import type { AttachmentsPort } from './attachments-port.ts';
import type { ClockPort } from './clock-port.ts';
import type { IdPort } from './id-port.ts';
import type { RulesPort } from './rules-port.ts';
import type { SettingsPort } from './settings-port.ts';
import type { SignerPort } from './signer-port.ts';
import type { StoragePort } from './storage-port.ts';
import type { PausePoint } from './records/index.ts';
import type { ToolRegistry } from './tool-registry.ts';

/** What the engine's parts share: the ports, resolved options, and this tab's identity. */
export interface EngineContext {
  storage: StoragePort;
  attachments: AttachmentsPort;
  /** The user's approval rules; an empty set when the host gave none. */
  rules: RulesPort;
  tools: ToolRegistry;
  clock: ClockPort;
  ids: IdPort;
  owner: string;
  settings: SettingsPort;
  onPause(pausePoint: PausePoint): void;
  /** This tab's calls waiting on cards they asked while running. */
  asks: AskWaiters;
  /** Signs each decision this device makes (signer-port.ts); none: decisions are stored unsigned. */
  signer?: SignerPort;
}
