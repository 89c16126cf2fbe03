import type { Conversation, Message, PausePoint } from '../../src/engine/records/index.ts';

/**
 * A seeded history for bench:search: `messages` messages over conversations
 * of 50, as a person's year of use might hold — questions, answers of a few
 * sentences, tool results as JSON, a card every tenth answer — in words
 * drawn from a Zipf-like vocabulary (a few words very common, most rare),
 * with accented and non-Latin words among them. Deterministic: the same
 * figures come from the same corpus on every run.
 */
export const PER_CONVERSATION = 50;

const BASE = [
  'the', 'a', 'to', 'of', 'and', 'in', 'is', 'for', 'on', 'that', 'with', 'this', 'it', 'be', 'as', 'at', 'by', 'from',
  'invoice', 'meeting', 'report', 'budget', 'travel', 'email', 'customer', 'schedule', 'project', 'review', 'order',
  'café', 'résumé', 'naïve', 'München', 'Zürich', 'São', 'Paulo', 'Kraków', 'Ærø', 'straße', '東京', 'Привет', 'καλημέρα',
];

/** A small deterministic generator (mulberry32), so every run benches the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A made-up word for each rank past the base vocabulary: `w` and the rank in base 36, with a syllable to look like text. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'dra', 'pel'];
const wordAt = (rank: number) =>
  rank < BASE.length ? BASE[rank]! : `${SYLLABLES[rank % SYLLABLES.length]}${rank.toString(36)}${SYLLABLES[(rank >> 3) % SYLLABLES.length]}`;

export const VOCABULARY = 20_000;

export function* corpus(messages: number): Generator<{ conversation: Conversation; messages: Message[]; cards: PausePoint[] }> {
  const next = random(20261202);
  // Zipf-like: rank = VOCABULARY^u - 1 makes low ranks common and the tail long.
  const word = () => wordAt(Math.min(VOCABULARY - 1, Math.floor(Math.pow(VOCABULARY, next()) - 1)));
  const sentence = (words: number) => {
    const out = Array.from({ length: words }, word);
    out[0] = out[0]!.charAt(0).toUpperCase() + out[0]!.slice(1);
    return `${out.join(' ')}.`;
  };
  const conversations = Math.ceil(messages / PER_CONVERSATION);
  const start = Date.UTC(2026, 0, 1);
  for (let c = 0; c < conversations; c++) {
    const id = `conv-${String(c).padStart(6, '0')}`;
    const count = Math.min(PER_CONVERSATION, messages - c * PER_CONVERSATION);
    const at = start + c * 3_600_000;
    const list: Message[] = [];
    const cards: PausePoint[] = [];
    for (let seq = 0; seq < count; seq++) {
      const base = { v: 1 as const, id: `${id}-m${String(seq).padStart(3, '0')}`, conversationId: id, seq, createdAt: at + seq * 1_000 };
      const kind = seq % 3;
      if (kind === 0) list.push({ ...base, role: 'user', content: sentence(6 + Math.floor(next() * 12)) });
      else if (kind === 1) {
        list.push({ ...base, role: 'assistant', content: Array.from({ length: 2 + Math.floor(next() * 4) }, () => sentence(8 + Math.floor(next() * 14))).join(' '), toolCalls: [], turnIndex: seq, status: 'complete' });
        if (seq % 10 === 1) cards.push(card(`${id}-p${seq}`, id, base.createdAt, sentence(4), sentence(15)));
      } else {
        list.push({ ...base, role: 'tool', toolCallId: `call-${seq}`, toolName: 'http_request', outcome: 'done', content: JSON.stringify({ status: 200, body: sentence(20) }) });
      }
    }
    yield {
      conversation: { v: 1, id, title: sentence(3 + Math.floor(next() * 3)).slice(0, -1), createdAt: at, updatedAt: at + count * 1_000, state: { kind: 'idle' }, turns: count, nextSeq: count },
      messages: list,
      cards,
    };
  }
}

function card(id: string, conversationId: string, createdAt: number, title: string, description: string): PausePoint {
  return {
    v: 1,
    id,
    conversationId,
    turnIndex: 0,
    title,
    description,
    options: null,
    payload: { method: 'POST', url: 'https://api.example.com/orders' },
    kind: 'approval',
    status: 'resolved',
    resolution: 'approve',
    resolvedAt: createdAt + 5_000,
    createdAt,
    origin: 'gate',
    toolCallId: 'call-1',
    toolName: 'http_request',
    expiresAt: null,
  };
}



