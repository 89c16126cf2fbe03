import type { z } from 'zod';
import { jsonEqual } from '../engine/json-equal.ts';
import { clampAuditEvent, clampDated, inertRule } from '../inert/index.ts';
import { API_KEYS_KEY, apiKeyFor } from '../storage/api-keys.ts';
import { createRule } from '../storage/approval-rules-repo.ts';
import { keysetPages } from '../storage/keyset-pages.ts';
import { ruleEvent } from '../storage/audit-events-repo.ts';
import type { PausepointDb } from '../storage/db.ts';
import { StoredSettings } from '../storage/settings-repo.ts';
import type { BackupRecords, BackupSettings } from './backup-format.ts';
import type { RestoreStaging } from './restore-staging.ts';
import type { RestoreResult } from './restore-result.ts';
import type { StagedBackup } from './stage-backup.ts';
import { stricterSettings, type KeptSetting } from './stricter-settings.ts';

const SETTINGS_KEY = 'settings';
/** Audit events read back from the staging database per page. */
const EVENTS_PAGE = 250;

/** A restore's last step, after the conversations: the notes, rules and settings in one transaction, then the audit history page by page. */
export async function writeTheRest(db: PausepointDb, staging: RestoreStaging, staged: StagedBackup, at: number, result: RestoreResult): Promise<void> {
  const stagedNotes = (await staging.notes.toArray()).map((row) => row.record);
  const stagedRules = (await staging.approvalRules.toArray()).map((row) => row.record);
  await db.transaction('rw', [db.notes, db.approvalRules, db.ruleEvents, db.settings, db.auditEvents], async () => {
    const notes = (await newerNotes(db, stagedNotes)).map((note) => clampDated(note, at));
    const rules = await missingRules(db, stagedRules.filter((rule) => rule.scope.kind !== 'conversation' || !staged.present.has(rule.scope.conversationId)));
    const approvalRules = rules.map((rule) => inertRule(rule, at));
    const settings = await restoreSettings(db, staged.settings);
    await db.notes.bulkPut(notes);
    // Each as the event that makes it, written by this device (rule-events-repo.ts).
    for (const rule of approvalRules) await createRule(db, rule);
    // Each rule a restore brings is in the audit log, as it came back (allow rules switched off).
    await db.auditEvents.bulkAdd(approvalRules.map((rule) => ruleEvent('rule_restored', rule, { id: crypto.randomUUID(), at })));
    if (settings.write) await db.settings.put({ key: SETTINGS_KEY, value: settings.write });
    Object.assign(result, {
      notes: notes.length,
      approvalRules: approvalRules.length,
      allowRulesOff: approvalRules.filter((rule) => rule.effect === 'allow').length,
      settings: settings.outcome,
      apiKeyMissing: settings.apiKeyMissing,
      keptStricter: settings.kept,
    });
  });
  for await (const page of keysetPages(staging.auditEvents, EVENTS_PAGE)) {
    const events = page.map((row) => row.record);
    await db.transaction('rw', db.auditEvents, async () => {
      const missing = (await missingEvents(db, events)).map((event) => clampAuditEvent(event, at));
      await db.auditEvents.bulkAdd(missing);
      result.auditEvents += missing.length;
    });
  }
}

/** The backup's rules whose ids were never here: a rule here is kept as it is, and one removed here stays removed. */
async function missingRules(db: PausepointDb, rules: BackupRecords['approvalRules']): Promise<BackupRecords['approvalRules']> {
  const here = await db.approvalRules.bulkGet(rules.map((rule) => rule.id));
  const known = new Set((await db.ruleEvents.where('ruleId').anyOf(rules.map((rule) => rule.id)).toArray()).map((event) => event.ruleId));
  return rules.filter((rule, index) => here[index] === undefined && !known.has(rule.id));
}

/** The backup's audit events whose ids are not here: history already here is kept as it is. */
async function missingEvents(db: PausepointDb, events: BackupRecords['auditEvents']): Promise<BackupRecords['auditEvents']> {
  const here = await db.auditEvents.bulkGet(events.map((event) => event.id));
  return events.filter((_, index) => here[index] === undefined);
}

async function newerNotes(db: PausepointDb, notes: BackupRecords['notes']): Promise<BackupRecords['notes']> {
  const current = await db.notes.bulkGet(notes.map((note) => note.id));
  return notes.filter((note, index) => {
    const here = current[index];
    return here === undefined || !(typeof here.updatedAt === 'number' && here.updatedAt >= note.updatedAt);
  });
}

interface SettingsPlan {
  outcome: RestoreResult['settings'];
  write: StoredSettingsValue | undefined;
  apiKeyMissing: boolean;
  kept: KeptSetting[];
}
type StoredSettingsValue = z.output<typeof StoredSettings>;

/** Providers that are usually run without a key: restoring their settings needs no key prompt. */
const KEYLESS_PROVIDERS: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'demo']);

async function restoreSettings(db: PausepointDb, backup: BackupSettings | null): Promise<SettingsPlan> {
  if (backup === null) return { outcome: 'absent', write: undefined, apiKeyMissing: false, kept: [] };
  const row = await db.settings.get(SETTINGS_KEY);
  const current = StoredSettings.safeParse(row?.value);
  if (current.success && current.data.baseUrl !== backup.baseUrl) {
    return { outcome: 'kept_current', write: undefined, apiKeyMissing: false, kept: [] };
  }
  const { settings: next, kept } = stricterSettings(StoredSettings.parse(backup), current.success ? current.data : undefined);
  if (current.success && sameSettings(current.data, next)) return { outcome: 'unchanged', write: undefined, apiKeyMissing: false, kept: [] };
  // The key, if any, is the one this browser saved for the restored endpoint's origin.
  const apiKey = apiKeyFor((await db.settings.get(API_KEYS_KEY))?.value, next.baseUrl);
  return { outcome: 'restored', write: next, apiKeyMissing: apiKey === '' && !KEYLESS_PROVIDERS.has(next.provider), kept };
}

/** Fields are JSON values (the prices a list of objects); a field left out equals one set to undefined. */
function sameSettings(a: StoredSettingsValue, b: StoredSettingsValue): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof StoredSettingsValue)[]);
  return [...keys].every((key) => jsonEqual(a[key], b[key]));
}

