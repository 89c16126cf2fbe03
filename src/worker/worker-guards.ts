import type { DecideResult, Response, WorkerEvent } from './protocol.ts';

/**
 * What the page reads of its worker's messages, checked by hand against what the
 * protocol's zod schemas accept (the page loads no zod: see worker-client.ts);
 * worker-client.test.ts holds each guard equal to its schema. Its own module so
 * that the client and the calls it loads on demand (*-calls.ts) import it in one
 * direction, and none of them imports another.
 */
type Fields = Record<string, unknown>;

export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isString = (value: unknown): value is string => typeof value === 'string';

export function readWorkerEvent(data: unknown): WorkerEvent | null {
  if (!isObject(data)) return null;
  if (data.type === 'ready' && isString(data.tabId)) return { type: 'ready', tabId: data.tabId };
  if (data.type === 'approval_requested' && isString(data.pausePointId) && isString(data.conversationId) && isString(data.title)) {
    return { type: 'approval_requested', pausePointId: data.pausePointId, conversationId: data.conversationId, title: data.title };
  }
  if (data.type === 'run_failed' && isString(data.conversationId) && isString(data.message)) {
    return { type: 'run_failed', conversationId: data.conversationId, message: data.message };
  }
  return null;
}

export function readResponse(data: unknown): Response | null {
  if (!isObject(data) || !Number.isSafeInteger(data.id)) return null;
  const id = data.id as number;
  if (data.ok === true) return 'value' in data ? { id, ok: true, value: data.value } : null;
  if (data.ok !== false || !isObject(data.error)) return null;
  const { name, message, code } = data.error;
  if (!isString(name) || !isString(message) || (code !== undefined && !isString(code))) return null;
  return { id, ok: false, error: code === undefined ? { name, message } : { name, message, code } };
}

const PAUSE_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'resolved', 'expired']);

export function readDecideResult(value: unknown): DecideResult | null {
  if (!isObject(value)) return null;
  switch (value.outcome) {
    case 'decided':
      return { outcome: 'decided' };
    case 'not_found':
      return { outcome: 'not_found' };
    case 'expired':
      return { outcome: 'expired' };
    case 'sent':
      return isString(value.owner) ? { outcome: 'sent', owner: value.owner } : null;
    case 'queued':
      return { outcome: 'queued' };
    case 'changed':
      return { outcome: 'changed' };
    case 'invalid':
      return isString(value.message) ? { outcome: 'invalid', message: value.message } : null;
    case 'already_decided': {
      if (!PAUSE_STATUSES.has(value.status)) return null;
      const status = value.status as Extract<DecideResult, { outcome: 'already_decided' }>['status'];
      if (value.decidedBy === undefined) return { outcome: 'already_decided', status };
      const by = value.decidedBy;
      if (!isObject(by) || !isString(by.tabId) || !isString(by.deviceId) || !isString(by.label)) return null;
      const via = by.via === 'sync' ? ({ via: 'sync' } as const) : {};
      return { outcome: 'already_decided', status, decidedBy: { tabId: by.tabId, deviceId: by.deviceId, label: by.label, ...via } };
    }
    default:
      return null;
  }
}
