/**
 * A ChatGPT export's `conversations.json` made up deterministically, for the
 * import bench and the streaming tests: the same arguments always give the
 * same bytes. Each conversation has the shapes from-chatgpt.ts reads — a
 * hidden system root, custom instructions, an edited question (a branch left
 * behind), a regenerated answer, images and a voice transcript in multimodal
 * parts, a call to `python` with its output, hidden thoughts — and prose of
 * about `textBytes` per message.
 */
export interface SyntheticExport {
  conversations: number;
  /** Message nodes per conversation (the branches left behind included). */
  messagesPerConversation: number;
  /** Bytes of prose per message, about. */
  textBytes: number;
  seed?: number;
}

const WORDS = (
  'invoice ticket train porto lisbon answer question schedule python table budget meeting draft summary travel ' +
  'report quarter revenue customer shipping refund contract review design release version server database index ' +
  'search memory stream parser worker browser garden recipe weather coffee bicycle library museum concert harbour'
).split(' ');

/** Mulberry32: a small, fast, seeded generator; the output only has to be the same every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Node {
  id: string;
  message: object | null;
  parent: string | null;
  children: string[];
}

/** The conversations one at a time, each as its JSON text. */
export function* syntheticConversations(spec: SyntheticExport): Generator<string> {
  const next = random(spec.seed ?? 35);
  // Prose is cut from one long text at places the generator picks: as varied as a search needs, and cheap to make.
  const words: string[] = [];
  for (let length = 0; length < 1 << 17; length += words.at(-1)!.length + 1) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
  const text = words.join(' ');
  const prose = (bytes: number) => {
    const from = text.indexOf(' ', Math.floor(next() * (text.length - bytes - 64))) + 1;
    return text.slice(from, text.lastIndexOf(' ', from + bytes));
  };
  for (let c = 0; c < spec.conversations; c++) {
    const start = 1_700_000_000 + c * 3_600;
    let time = start;
    const mapping: Record<string, Node> = {};
    const add = (id: string, parent: string | null, message: object | null) => {
      mapping[id] = { id, message, parent, children: [] };
      if (parent) mapping[parent]!.children.push(id);
      return id;
    };
    const message = (id: string, role: string, content: object, extra: object = {}) => ({
      id,
      author: { role, name: role === 'tool' ? 'python' : null, metadata: {} },
      create_time: (time += 7.25),
      update_time: null,
      content,
      status: 'finished_successfully',
      end_turn: role === 'assistant' ? true : null,
      weight: 1.0,
      metadata: { model_slug: 'gpt-4o', request_id: `req-${c}-${id}` },
      recipient: 'all',
      ...extra,
    });
    const plain = (s: string) => ({ content_type: 'text', parts: [s] });
    const root = add(`c${c}-root`, null, null);
    let last = add(`c${c}-sys`, root, message(`c${c}-sys`, 'system', plain(''), { metadata: { is_visually_hidden_from_conversation: true } }));
    let count = 1;
    last = add(`c${c}-ctx`, last, message(`c${c}-ctx`, 'system', { content_type: 'user_editable_context', user_profile: 'I live in Lisbon.', user_instructions: 'Answer briefly.' }));
    count++;
    for (let turn = 0; count < spec.messagesPerConversation; turn++) {
      const kind = turn % 6;
      const u = `c${c}-u${turn}`;
      if (kind === 1 && count + 4 <= spec.messagesPerConversation) {
        // An edited question: the first version and its answer stay as a branch the import leaves out.
        const old = add(`${u}-old`, last, message(`${u}-old`, 'user', plain(`OLD BRANCH ${prose(spec.textBytes / 4)}`)));
        add(`${u}-old-a`, old, message(`${u}-old-a`, 'assistant', plain(prose(spec.textBytes / 2))));
        count += 2;
      }
      const parts =
        kind === 2
          ? { content_type: 'multimodal_text', parts: [{ content_type: 'image_asset_pointer', asset_pointer: `file-service://file-${c}x${turn}`, width: 1024, height: 768, size_bytes: 182_044 }, prose(spec.textBytes)] }
          : kind === 4
            ? { content_type: 'multimodal_text', parts: [{ content_type: 'audio_transcription', text: prose(spec.textBytes), direction: 'in' }, { content_type: 'audio_asset_pointer', asset_pointer: `sediment://file_${c}${turn}` }] }
            : plain(prose(spec.textBytes));
      last = add(u, last, message(u, 'user', parts));
      count++;
      if (count >= spec.messagesPerConversation) break;
      if (kind === 3 && count + 3 <= spec.messagesPerConversation) {
        last = add(`${u}-call`, last, message(`${u}-call`, 'assistant', { content_type: 'code', language: 'python', text: `print(${turn} ** 100)  # ${prose(spec.textBytes / 4)}` }, { recipient: 'python' }));
        last = add(`${u}-out`, last, message(`${u}-out`, 'tool', { content_type: 'execution_output', text: prose(spec.textBytes / 4) }));
        last = add(`${u}-think`, last, message(`${u}-think`, 'assistant', { content_type: 'thoughts', thoughts: [{ summary: 'Checking', content: prose(200) }] }));
        count += 3;
      }
      if (count >= spec.messagesPerConversation) break;
      if (kind === 5 && count + 2 <= spec.messagesPerConversation) {
        // A regenerated answer: the first one stays a sibling the import leaves out.
        add(`${u}-a-old`, last, message(`${u}-a-old`, 'assistant', plain(`REGENERATED AWAY ${prose(spec.textBytes)}`)));
        count++;
      }
      last = add(`${u}-a`, last, message(`${u}-a`, 'assistant', plain(prose(spec.textBytes))));
      count++;
    }
    yield JSON.stringify({
      title: `Conversation ${c + 1}: ${prose(30)}`,
      create_time: start,
      update_time: time,
      mapping,
      moderation_results: [],
      current_node: last,
      plugin_ids: null,
      conversation_id: `conv-${c}`,
      id: `conv-${c}`,
    });
  }
}

/** The whole export as a stream, made as it is read: nothing but the conversation being made is held. */
export function syntheticExportStream(spec: SyntheticExport): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const conversations = syntheticConversations(spec);
  let first = true;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = conversations.next();
      if (next.done) {
        controller.enqueue(encoder.encode(first ? '[]' : ']'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`${first ? '[' : ','}${next.value}`));
      first = false;
    },
  });
}
