import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, say, tab } from '../engine/testing/harness.ts';
import { signObject } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { openTestDb } from '../storage/testing/open-test-db.ts';
import type { AuditLogFile } from './audit-entry.ts';
import { canonicalJson } from './canonical-json.ts';
import { exportAuditLog } from './export-audit-log.ts';
import { rechain } from './testing/rechain.ts';

const dir = mkdtempSync(join(tmpdir(), 'pausepoint-decision-snippet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first fenced block of `lang` after `heading` in docs/formats.md: the documented check, run as written. */
function blockAfter(heading: string, lang: string): string {
  const text = readFileSync(new URL('../../docs/formats.md', import.meta.url), 'utf8');
  const at = text.indexOf(heading);
  const block = at < 0 ? undefined : new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(text.slice(at))?.[1];
  if (!block) throw new Error(`docs/formats.md has no ${lang} block under "${heading}".`);
  return block;
}
const HEADING = '### Checking who made a decision';

function runNode(file: string, entryId: string): { ok: boolean; output: string } {
  const script = join(dir, 'verify-decision.mjs');
  writeFileSync(script, blockAfter(HEADING, 'js'));
  try {
    return { ok: true, output: execFileSync(process.execPath, [script, file, entryId], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: unknown }).stderr) };
  }
}

type Json = Record<string, unknown>;
let exported: AuditLogFile;
let cardId: string;
let path: string;

/** A decision made through the engine on Dexie, signed by the device's own key as the worker signs it, then exported. */
beforeAll(async () => {
  const { db, cleanup } = await openTestDb();
  try {
    const storage = new DexieStorage(db);
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Not sent.' }], {
      storage,
      signer: { sign: async (signed) => signObject(await deviceIdentity(db), signed) },
    });
    const id = await say(h, null, 'pay bob');
    const [card] = await storage.listPendingPausePoints(id);
    cardId = card!.id;
    expect(await h.engine.decide(cardId, { type: 'decline', reason: 'not this month — “no”' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    const chunks: string[] = [];
    await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk));
    const text = chunks.join('');
    exported = JSON.parse(text) as AuditLogFile;
    path = join(dir, 'export.json');
    writeFileSync(path, text);
  } finally {
    await cleanup();
  }
});

const decision = () => exported.entries.find((e) => e.id === cardId)! as Json & { device_signature: { signed: Json; value: string; key_id: string } };

describe('an audit export checked with Node’s crypto and the exported JWK alone', () => {
  it('verifies the decision’s signature with crypto.verify, the listed JWK and nothing of Pausepoint', () => {
    const { signed, value, key_id } = decision().device_signature;
    expect(signed).toMatchObject({ card_id: cardId, status: 'resolved', resolution: 'decline', by: 'person', reason: 'not this month — “no”' });
    const device = exported.devices.find((d) => d.key_id === key_id)!;
    const key = createPublicKey({ key: device.public_key, format: 'jwk' });
    const ok = verify('sha256', Buffer.from(canonicalJson(signed)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(value, 'base64url'));
    expect(ok).toBe(true);
    expect(verify('sha256', Buffer.from(canonicalJson({ ...signed, resolution: 'approve' })), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(value, 'base64url'))).toBe(false);
  });
});

describe('the decision check of docs/formats.md', () => {
  it('verifies the exported decision and names the device that signed it', () => {
    const { key_id } = decision().device_signature;
    expect(runNode(path, cardId)).toEqual({ ok: true, output: `Verified: ${cardId} (resolved, "decline", by person) signed by This device, key ${key_id}, at ${String(decision().device_signature.signed.decided_at)}\n` });
  });

  it('refuses the decision edited to an approval, its signed object too and every hash computed again', () => {
    const file = structuredClone(exported) as unknown as Json;
    const entry = (file.entries as Json[]).find((e) => e.id === cardId)!;
    entry.resolution = 'approve';
    (entry.device_signature as { signed: Json }).signed.resolution = 'approve';
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(rechain(file)));
    expect(runNode(edited, cardId)).toMatchObject({ ok: false, output: expect.stringContaining(`${cardId}: the signature does not verify`) });
    // Edited in the entry alone, the signature still signs the decline: the check says it is another decision.
    entry.resolution = 'approve';
    (entry.device_signature as { signed: Json }).signed.resolution = 'decline';
    writeFileSync(edited, JSON.stringify(rechain(file)));
    expect(runNode(edited, cardId)).toMatchObject({ ok: false, output: expect.stringContaining(`${cardId}: the signature signs another decision`) });
  });

  it('verifies with openssl as documented, and refuses another key', () => {
    const { signed, value, key_id } = decision().device_signature;
    const jwk = exported.devices.find((d) => d.key_id === key_id)!.public_key;
    const work = mkdtempSync(join(dir, 'openssl-'));
    writeFileSync(join(work, 'signed.json'), canonicalJson(signed));
    writeFileSync(join(work, 'value.b64u'), value);
    writeFileSync(join(work, 'key.pem'), createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(work, 'check.sh'), blockAfter(HEADING, 'sh'));
    const run = () => {
      try {
        return execFileSync('bash', ['check.sh'], { cwd: work, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        return String((error as { stdout?: unknown }).stdout);
      }
    };
    expect(run()).toBe('Verified OK\n');
    writeFileSync(join(work, 'signed.json'), canonicalJson({ ...signed, resolution: 'approve' }));
    expect(run()).toBe('Verification failure\n');
  });
});
