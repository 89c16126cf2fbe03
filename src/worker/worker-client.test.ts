import { describe, expect, test } from 'vitest';
import { DecideResult, Response, WorkerEvent } from './protocol.ts';
import { readDecideResult, readResponse, readWorkerEvent } from './worker-client.ts';

/** The page reads worker messages with hand-written guards; they must agree with the protocol's schemas. */
const samples: unknown[] = [
  { type: 'ready', tabId: 't' },
  { type: 'ready' },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 'T' },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 7 },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 'T', extra: true },
  { type: 'run_failed', conversationId: 'c', message: 'The browser ran out of storage space.' },
  { type: 'run_failed', conversationId: 'c' },
  { type: 'other' },
  { id: 1, ok: true, value: { conversationId: 'c' } },
  { id: 1, ok: true },
  { id: 1.5, ok: true, value: null },
  { id: '1', ok: true, value: null },
  { id: 2, ok: false, error: { name: 'E', message: 'm' } },
  { id: 2, ok: false, error: { name: 'E', message: 'm', code: 'c' } },
  { id: 2, ok: false, error: { name: 'E', message: 'm', code: 3 } },
  { id: 2, ok: false, error: { name: 'E' } },
  { id: 2, ok: 'yes', value: 1 },
  { outcome: 'decided' },
  { outcome: 'not_found' },
  { outcome: 'expired' },
  { outcome: 'invalid', message: 'bad' },
  { outcome: 'invalid' },
  { outcome: 'already_decided', status: 'resolved' },
  { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't', deviceId: 'd', label: 'l' } },
  { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't' } },
  { outcome: 'already_decided', status: 'gone' },
  { outcome: '__proto__' },
  null,
  'text',
  [],
];

describe('worker message guards', () => {
  test.each(samples.map((s) => [JSON.stringify(s), s]))('%s', (_name, sample) => {
    const event = WorkerEvent.safeParse(sample);
    expect(readWorkerEvent(sample)).toEqual(event.success ? event.data : null);
    const response = Response.safeParse(sample);
    expect(readResponse(sample)).toEqual(response.success ? response.data : null);
    const result = DecideResult.safeParse(sample);
    expect(readDecideResult(sample)).toEqual(result.success ? result.data : null);
  });
});
