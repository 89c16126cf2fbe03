/*
 * The inert path: every record that comes from outside this browser — a
 * backup being restored, a conversation file or ChatGPT export being
 * imported, a document another of the person's devices pushed — passes
 * through here before it is written. Pure functions over the engine's
 * records; the subsystems that read files and documents (src/backup,
 * src/conversation-file, src/sync) call them, one conversation or record at
 * a time. The README's *Security model* says which rules hold for which.
 */
export { admitSynced, type Admitted, type SharedSetting, type SyncedRecord } from './admit-synced.ts';
export { clampAuditEvent, clampDated, clampTime } from './clamp-times.ts';
export { INTERRUPTED_FROM_FILE, inertConversation, NOT_RUN_FROM_FILE, type ForeignConversation, type InertConversation } from './inert-conversation.ts';
export { inertRule, inertRuleEvent } from './inert-rule.ts';
export type { FromDevice, FromFile } from './provenance.ts';
