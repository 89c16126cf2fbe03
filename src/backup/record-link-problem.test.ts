import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../engine/records/index.ts';
import { makeLedgerEntry, makePausePoint } from '../engine/testing/make-records.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { BackupError } from './backup-error.ts';
import { gateCardProblem } from './record-link-problem.ts';
import { restoreBackup } from './restore-backup.ts';

const INVALID = join(import.meta.dirname, '../../tests/fixtures/backup/invalid');

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const call = (name: string, args: unknown): ToolCall => ({ id: 'call_1', name, arguments: JSON.stringify(args) });
const card = (toolName: string, payload: unknown) => makePausePoint({ toolName, payload });

describe('point 2: a restored card can show one call and run another', () => {
  it.each(['gate-card-other-arguments.json', 'gate-card-other-tool.json'])('%s is refused, and nothing of it is written', async (name) => {
    const error = await restoreBackup(db, readFileSync(join(INVALID, name), 'utf8')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect(error).toMatchObject({ code: 'invalid_record', table: 'pausePoints' });
    expect(await db.pausePoints.count()).toBe(0);
    expect(await db.conversations.count()).toBe(0);
  });

  it('refuses a gate card whose tool or arguments differ from its call', () => {
    const post = call('http_request', { method: 'POST', url: 'https://bank.example/transfers', body: 'pay' });
    expect(gateCardProblem(card('http_request', { method: 'GET', url: 'https://weather.example/' }), post, undefined)).toMatch(/not those of its call/);
    expect(gateCardProblem(card('list_notes', { method: 'POST', url: 'https://bank.example/transfers', body: 'pay' }), post, undefined)).toMatch(
      /asks about tool "list_notes"/,
    );
  });

  it('accepts the arguments as the model sent them, as the tool reads them, or as the call’s ledger entry ran them', () => {
    const raw = call('send_invoice', { to: 'ada@example.com', amount: 120 });
    expect(gateCardProblem(card('send_invoice', { amount: 120, to: 'ada@example.com' }), raw, undefined)).toBeUndefined();
    // http_request's schema normalises the URL: its card holds the normalised one.
    const get = call('http_request', { method: 'GET', url: 'https://Weather.example' });
    expect(gateCardProblem(card('http_request', { method: 'GET', url: 'https://weather.example/' }), get, undefined)).toBeUndefined();
    // After "Run again", the card asks about the arguments the call ran with (an edit, say).
    const edited = { to: 'ada@example.com', amount: 100 };
    expect(gateCardProblem(card('send_invoice', edited), raw, makeLedgerEntry({ args: edited }))).toBeUndefined();
  });

  it('leaves other cards, and a card whose call is not in the file, to the other checks', () => {
    const post = call('http_request', { method: 'POST', url: 'https://bank.example/transfers' });
    expect(gateCardProblem(makePausePoint({ origin: 'model', toolName: 'wait_for_approval', payload: null }), post, undefined)).toBeUndefined();
    expect(gateCardProblem(card('http_request', { method: 'GET', url: 'https://weather.example/' }), undefined, undefined)).toBeUndefined();
  });

  describe('in a whole file', () => {
    type FileShape = { data: { messages: Record<string, unknown>[]; pausePoints: Record<string, unknown>[] } };
    const otherTool = () => JSON.parse(readFileSync(join(INVALID, 'gate-card-other-tool.json'), 'utf8')) as FileShape;
    /** The fixture's assistant message again, later in the file and the conversation, making its call `call_pay` to `name`. */
    const callAgain = (file: FileShape, name: string, args: unknown) => {
      const first = file.data.messages[1]!;
      file.data.messages.push({ ...first, id: '9a7e0000-0000-4000-8000-000000000a02', seq: 2, toolCalls: [{ id: 'call_pay', name, arguments: JSON.stringify(args) }] });
    };

    it('checks a card against the last call of its id in the file', async () => {
      const later = otherTool();
      callAgain(later, 'list_notes', {});
      await expect(restoreBackup(db, JSON.stringify(later))).resolves.toMatchObject({ conversations: 1, pausePoints: 1 });

      const earlier = otherTool();
      earlier.data.messages[1]!.toolCalls = [{ id: 'call_pay', name: 'list_notes', arguments: '{}' }];
      callAgain(earlier, 'http_request', { method: 'POST', url: 'https://bank.example/transfers' });
      await db.delete();
      await db.open();
      await expect(restoreBackup(db, JSON.stringify(earlier))).rejects.toThrow(/Record 0 of pausePoints .* asks about tool "list_notes", but its call "call_pay" is to "http_request"/);
    });

    it('names the first card of the file with a problem, whatever order the ids are in', async () => {
      const file = otherTool();
      const second = { ...file.data.pausePoints[0]!, id: '0a7e0000-0000-4000-8000-0000000000b2', toolName: 'send_invoice' };
      file.data.pausePoints.push(second);
      const error = await restoreBackup(db, JSON.stringify(file)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_record', table: 'pausePoints', index: 0 });
      expect(await db.pausePoints.count()).toBe(0);
    });
  });
});
