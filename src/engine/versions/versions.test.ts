import { describe, expect, it } from 'vitest';
import type { Message, Versions } from '../records/index.ts';
import { currentPath, onPath } from './current-path.ts';
import { fork } from './fork.ts';
import { lastAnswer } from './last-answer.ts';
import { makeCurrent } from './make-current.ts';
import { versionsAt } from './versions-at.ts';

/** A conversation as storage keeps it: messages appended with the current branch stamped, as both storages do. */
class Timeline {
  messages: Message[] = [];
  versions: Versions | undefined;
  #branches = 0;

  say(role: 'user' | 'assistant', content: string): Message {
    const seq = this.messages.length;
    const branch = this.versions?.current || undefined;
    const base = { v: 1 as const, id: `m${seq}`, conversationId: 'c', seq, createdAt: seq, ...(branch ? { branch } : {}) };
    const message: Message =
      role === 'user' ? { ...base, role, content } : { ...base, role, content, toolCalls: [], turnIndex: 0, status: 'complete' };
    this.messages.push(message);
    return message;
  }

  get path(): readonly Message[] {
    return currentPath(this.messages, this.versions);
  }

  /** Edit or Regenerate at `at`: the new version is current. */
  fork(at: Message): void {
    this.#branches++;
    this.versions = fork(this.versions, this.path, at, { id: `b${this.#branches}`, createdAt: 100 + this.#branches });
  }

  switchTo(branch: string | undefined): void {
    expect(branch).toBeDefined();
    this.versions = makeCurrent(this.versions!, branch!);
  }

  text(): string[] {
    return this.path.map((m) => m.content);
  }

  choice(at: Message) {
    return versionsAt(this.path, this.versions).get(at.id);
  }
}

describe('versions', () => {
  it('a conversation without versions (no branch on any message) is its whole history, the same array', () => {
    const t = new Timeline();
    t.say('user', 'hi');
    t.say('assistant', 'hello');
    expect(currentPath(t.messages, undefined)).toBe(t.messages);
    expect(versionsAt(t.messages, undefined).size).toBe(0);
    expect(onPath(undefined)({ seq: 5, branch: 'x' })).toBe(true);
  });

  it('an edit keeps the path before the edited message and shows the new one; the original stays reachable', () => {
    const t = new Timeline();
    t.say('user', 'one');
    t.say('assistant', 'answer one');
    const second = t.say('user', 'two');
    t.say('assistant', 'answer two');
    t.fork(second);
    const edited = t.say('user', 'two, edited');
    t.say('assistant', 'answer to the edit');
    expect(t.text()).toEqual(['one', 'answer one', 'two, edited', 'answer to the edit']);
    expect(t.choice(edited)).toEqual({ shown: 2, count: 2, previous: '' });
    t.switchTo(t.choice(edited)?.previous);
    expect(t.text()).toEqual(['one', 'answer one', 'two', 'answer two']);
    expect(t.choice(second)).toEqual({ shown: 1, count: 2, next: 'b1' });
    t.switchTo(t.choice(second)?.next);
    expect(t.text()).toEqual(['one', 'answer one', 'two, edited', 'answer to the edit']);
  });

  it("editing version 2's message again makes version 3 of the same place, not a nested 1 of 2", () => {
    const t = new Timeline();
    const first = t.say('user', 'v1');
    t.say('assistant', 'a1');
    t.fork(first);
    const v2 = t.say('user', 'v2');
    t.say('assistant', 'a2');
    t.fork(v2);
    const v3 = t.say('user', 'v3');
    expect(t.versions?.branches.map((b) => [b.id, b.parent, b.from])).toEqual([
      ['b1', '', 0],
      ['b2', '', 0],
    ]);
    expect(t.choice(v3)).toEqual({ shown: 3, count: 3, previous: 'b1' });
    t.switchTo('b1');
    expect(t.choice(v2)).toEqual({ shown: 2, count: 3, previous: '', next: 'b2' });
    expect(t.text()).toEqual(['v2', 'a2']);
  });

  it('nested edits: a version inside a version, and switching back to a version shows it as it was left', () => {
    const t = new Timeline();
    const q1 = t.say('user', 'q1');
    t.say('assistant', 'a1');
    t.fork(q1);
    t.say('user', 'q1 edited');
    t.say('assistant', 'a1 edited');
    const q2 = t.say('user', 'q2');
    t.say('assistant', 'a2');
    // Inside version 2 of q1: q2 edited (a fork of b1 at q2's seq).
    t.fork(q2);
    const q2b = t.say('user', 'q2 edited');
    expect(t.versions?.branches.at(-1)).toMatchObject({ id: 'b2', parent: 'b1', from: q2.seq });
    expect(t.text()).toEqual(['q1 edited', 'a1 edited', 'q2 edited']);
    expect(t.choice(q2b)).toEqual({ shown: 2, count: 2, previous: 'b1' });
    // Back to the original q1, then forward again: the nested version last seen is shown.
    const q1b = t.path[0]!;
    expect(t.choice(q1b)).toEqual({ shown: 2, count: 2, previous: '' });
    t.switchTo('');
    expect(t.text()).toEqual(['q1', 'a1']);
    t.switchTo(t.choice(q1)?.next);
    expect(t.versions?.current).toBe('b2');
    expect(t.text()).toEqual(['q1 edited', 'a1 edited', 'q2 edited']);
    // Choosing q2's original inside version 2 shows b1 itself; q1's next then returns to b1.
    t.switchTo(t.choice(q2b)?.previous);
    expect(t.text()).toEqual(['q1 edited', 'a1 edited', 'q2', 'a2']);
    t.switchTo('');
    expect(t.choice(q1)?.next).toBe('b1');
  });

  it("the original's leaf is found below a later fork of its own branch", () => {
    const t = new Timeline();
    const q1 = t.say('user', 'q1');
    t.say('assistant', 'a1');
    const q2 = t.say('user', 'q2');
    t.fork(q2); // b1 forks the root at q2: it still shows q1
    t.say('user', 'q2 edited');
    t.fork(q1); // b2 forks the root at q1
    t.say('user', 'q1 edited');
    expect(t.choice(t.path[0]!)).toEqual({ shown: 2, count: 2, previous: 'b1' });
  });

  it('regenerate: a fork at the first message of the last answer keeps the question', () => {
    const t = new Timeline();
    t.say('user', 'q');
    const a = t.say('assistant', 'first answer');
    expect(lastAnswer(t.path)).toEqual([a]);
    t.fork(lastAnswer(t.path)[0]!);
    expect(t.text()).toEqual(['q']);
    expect(lastAnswer(t.path)).toEqual([]);
    const b = t.say('assistant', 'second answer');
    expect(t.choice(b)).toEqual({ shown: 2, count: 2, previous: '' });
    // Regenerating the regenerated answer is a third version of the same answer.
    t.fork(b);
    const c = t.say('assistant', 'third answer');
    expect(t.choice(c)).toEqual({ shown: 3, count: 3, previous: 'b1' });
  });

  it('the last answer follows the last message of the person, not a decision message', () => {
    const t = new Timeline();
    t.say('user', 'q');
    const a = t.say('assistant', 'calls');
    const said = t.say('user', 'approved');
    const decision: Message = { ...(said as Extract<Message, { role: 'user' }>), decision: { pausePointId: 'p' } };
    t.messages[decision.seq] = decision;
    const b = t.say('assistant', 'done');
    expect(lastAnswer(t.path).map((m) => m.id)).toEqual([a.id, decision.id, b.id]);
  });

  it('a malformed record (a cycle, an unknown current branch) shows less and never hangs', () => {
    const messages: Message[] = [
      { v: 1, id: 'm0', conversationId: 'c', seq: 0, createdAt: 0, role: 'user', content: 'root' },
      { v: 1, id: 'm1', conversationId: 'c', seq: 1, createdAt: 1, role: 'user', content: 'x', branch: 'x' },
    ];
    const cycle: Versions = {
      current: 'x',
      rootActive: 0,
      branches: [
        { id: 'x', parent: 'y', from: 0, active: 1, createdAt: 0 },
        { id: 'y', parent: 'x', from: 0, active: 2, createdAt: 0 },
      ],
    };
    expect(currentPath(messages, cycle).map((m) => m.id)).toEqual(['m1']);
    expect(() => versionsAt(messages, cycle)).not.toThrow();
    expect(currentPath(messages, { current: 'gone', rootActive: 0, branches: [] })).toEqual([]);
    expect(makeCurrent(cycle, 'gone')).toBeUndefined();
    expect(makeCurrent(cycle, '__proto__')).toBeUndefined();
  });
});
