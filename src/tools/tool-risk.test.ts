import { describe, expect, it } from 'vitest';
import type { PausePoint } from '../engine/records/index.ts';
import { riskOfPause } from '../engine/risk-label.ts';
import { createHttpRequestTool } from './http-request.ts';
import type { NotesStorePort } from './notes-store-port.ts';
import { createNotesTools } from './notes-tools.ts';

const card = (origin: PausePoint['origin'], payload: unknown = null, kind: PausePoint['kind'] = 'approval') => ({ origin, kind, payload });

describe('the built-in tools\' risk labels', () => {
  it('http_request labels each call by its method', () => {
    const tool = createHttpRequestTool({ fetch: () => Promise.reject(new Error('not sent')) });
    const label = (method: string) => riskOfPause(tool, card('gate', { method, url: 'https://api.example/x' }));
    expect([label('GET'), label('HEAD'), label('POST'), label('PUT'), label('PATCH'), label('DELETE')]).toEqual([
      'reads',
      'reads',
      'changes',
      'changes',
      'changes',
      'destructive',
    ]);
  });

  it('the notes tools declare theirs: list_notes reads, save_note changes, delete_note destroys', () => {
    const store: NotesStorePort = {
      list: () => Promise.resolve([]),
      get: () => Promise.resolve(undefined),
      save: () => Promise.reject(new Error('unused')),
      remove: () => Promise.resolve(false),
    };
    const byName = Object.fromEntries(createNotesTools(store).map((tool) => [tool.name, tool]));
    expect(riskOfPause(byName.list_notes, card('gate', {}))).toBe('reads');
    expect(riskOfPause(byName.save_note, card('rule', { title: 't', body: 'b' }))).toBe('changes');
    expect(riskOfPause(byName.delete_note, card('gate', { id: 'n1' }))).toBe('destructive');
  });

  it('an unknown outcome card is labelled as its call, from the arguments it ran with', () => {
    const tool = createHttpRequestTool({ fetch: () => Promise.reject(new Error('not sent')) });
    expect(riskOfPause(tool, card('unknown_outcome', { method: 'DELETE', url: 'https://api.example/x' }, 'choice'))).toBe('destructive');
  });

});
