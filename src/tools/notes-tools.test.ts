import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../engine/tool-definition.ts';
import { createDeleteNoteTool } from './delete-note.ts';
import { createListNotesTool } from './list-notes.ts';
import type { Note } from '../storage/records/note-record.ts';
import type { NotesStorePort } from './notes-store-port.ts';
import { createNotesTools } from './notes-tools.ts';
import { createSaveNoteTool } from './save-note.ts';

/** The storage contract in a Map, with a clock the test controls. */
class MemoryNotes implements NotesStorePort {
  readonly notes = new Map<string, Note>();
  now = Date.parse('2026-05-01T10:00:00Z');
  #next = 0;

  async save(note: { title: string; body: string }): Promise<Note> {
    const stored: Note = { v: 1, id: `note-${++this.#next}`, ...note, createdAt: this.now, updatedAt: this.now };
    this.notes.set(stored.id, stored);
    return stored;
  }
  async list(): Promise<Note[]> {
    return [...this.notes.values()];
  }
  async get(id: string): Promise<Note | undefined> {
    return this.notes.get(id);
  }
  async remove(id: string): Promise<boolean> {
    return this.notes.delete(id);
  }
}

const context: ToolContext = {
  conversationId: 'conv-1',
  toolCallId: 'call-1',
  turnIndex: 0,
  signal: new AbortController().signal,
  pause: () => Promise.reject(new Error('notes tools never pause themselves')),
  ask: () => Promise.reject(new Error('notes tools never ask while they run')),
};

/** Parses like the engine does, then runs. */
async function run<S extends z.ZodType>(tool: ToolDefinition<S>, raw: unknown): Promise<string> {
  return tool.execute(tool.input.parse(raw), context);
}

describe('notes tools', () => {
  it('are named as the model knows them, with schemas that convert to JSON Schema', () => {
    const tools = createNotesTools(new MemoryNotes());
    expect(tools.map((t) => t.name)).toEqual(['save_note', 'list_notes', 'delete_note']);
    for (const tool of tools) expect(() => z.toJSONSchema(tool.input)).not.toThrow();
    const save = z.toJSONSchema(createSaveNoteTool(new MemoryNotes()).input) as { properties: Record<string, { description?: string }> };
    expect(save.properties.title?.description).toBeTruthy();
  });

  it('refuse arguments that do not fit', () => {
    const save = createSaveNoteTool(new MemoryNotes()).input;
    expect(save.safeParse({ title: 'x', body: 'y' }).success).toBe(true);
    expect(save.safeParse({ title: '   ', body: 'y' }).success).toBe(false);
    expect(save.safeParse({ title: 'x' }).success).toBe(false);
    expect(save.safeParse({ title: 'x'.repeat(201), body: '' }).success).toBe(false);
    const remove = createDeleteNoteTool(new MemoryNotes()).input;
    expect(remove.safeParse({}).success).toBe(false);
    expect(remove.safeParse({ id: 7 }).success).toBe(false);
  });

  it('mark every deletion irreversible', () => {
    expect(createDeleteNoteTool(new MemoryNotes()).irreversible?.({ id: 'n1' })).toBe(true);
  });

  it('save, list newest first, and delete: a round trip', async () => {
    const store = new MemoryNotes();
    const [save, list, remove] = [createSaveNoteTool(store), createListNotesTool(store), createDeleteNoteTool(store)];

    expect(await run(list, {})).toBe('There are no saved notes.');
    expect(await run(save, { title: 'Groceries', body: 'milk' })).toBe('Saved note “Groceries” with id note-1.');
    store.now += 60_000;
    await run(save, { title: 'Ideas', body: 'more' });

    const listed = JSON.parse(await run(list, {})) as { count: number; notes: { id: string; title: string; updated: string }[] };
    expect(listed.count).toBe(2);
    expect(listed.notes.map((n) => n.title)).toEqual(['Ideas', 'Groceries']);
    expect(listed.notes[1]).toEqual({ id: 'note-1', title: 'Groceries', created: '2026-05-01T10:00:00.000Z', updated: '2026-05-01T10:00:00.000Z' });
    expect(JSON.stringify(listed)).not.toContain('milk');

    expect(await run(remove, { id: 'note-1' })).toBe('Deleted note “Groceries” (id note-1).');
    expect([...store.notes.keys()]).toEqual(['note-2']);
  });

  it('delete_note fails readably for an unknown id', async () => {
    await expect(run(createDeleteNoteTool(new MemoryNotes()), { id: 'nope' })).rejects.toThrow(/no note with id "nope".*list_notes/);
  });

  it('gate every delete, and nothing else', () => {
    const store = new MemoryNotes();
    const question = createDeleteNoteTool(store).gate?.({ id: 'note-9' });
    expect(question?.title).toBe('Delete note “note-9”?');
    expect(question?.description).toMatch(/cannot be undone/);
    expect(createSaveNoteTool(store).gate).toBeUndefined();
    expect(createListNotesTool(store).gate).toBeUndefined();
  });
});
