import { z } from 'zod';

/**
 * The parts of a ChatGPT data export's `conversations.json` an import reads.
 * The file is an array of conversations, each a tree: `mapping` holds every
 * node (a message, or none for the root) by id with its `parent` and
 * `children`; editing a message or regenerating an answer adds a branch, and
 * `current_node` is the last node of the branch the person last saw. Objects
 * are loose: the export carries many more members, which change over time and
 * are not read.
 */
const Author = z.looseObject({ role: z.string(), name: z.string().nullish() });

/** A message's content; `content_type` says which members the rest has (see chatgpt-content.ts). */
export const ChatGptContent = z.looseObject({ content_type: z.string() });
export type ChatGptContent = z.infer<typeof ChatGptContent>;

export const ChatGptMessage = z.looseObject({
  id: z.string(),
  author: Author,
  create_time: z.number().nullish(),
  content: ChatGptContent,
  /** `all` for a message to the person; a tool's name for a call the model made to it. */
  recipient: z.string().nullish(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
});
export type ChatGptMessage = z.infer<typeof ChatGptMessage>;

const ChatGptNode = z.looseObject({
  id: z.string(),
  message: ChatGptMessage.nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).optional(),
});

export const ChatGptConversation = z.looseObject({
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  update_time: z.number().nullish(),
  mapping: z.record(z.string(), ChatGptNode),
  current_node: z.string().nullish(),
});
export type ChatGptConversation = z.infer<typeof ChatGptConversation>;

/** Whether parsed JSON looks like conversations.json at all (an array of objects with a `mapping`), before it is checked. */
export function looksLikeChatGptExport(json: unknown): json is unknown[] {
  return Array.isArray(json) && json.length > 0 && json.every((item) => typeof item === 'object' && item !== null && 'mapping' in item);
}

/**
 * The messages of the branch the person last saw, oldest first: from
 * `current_node` up through the parents to the root. Other branches (earlier
 * versions of an edited message, regenerated answers) are left out, as ChatGPT
 * shows them. Null when the tree is broken: a missing node or a cycle.
 */
export function currentBranch(conversation: ChatGptConversation): ChatGptMessage[] | null {
  const { mapping } = conversation;
  const start = conversation.current_node ?? lastLeaf(mapping);
  if (start === undefined) return [];
  const branch: ChatGptMessage[] = [];
  const seen = new Set<string>();
  for (let id: string | null | undefined = start; id !== null && id !== undefined; ) {
    if (seen.has(id) || !Object.hasOwn(mapping, id)) return null;
    seen.add(id);
    const node: z.infer<typeof ChatGptNode> = mapping[id]!;
    if (node.message) branch.push(node.message);
    id = node.parent;
  }
  return branch.reverse();
}

/** With no `current_node` (older exports): the last node that has no children, in the file's order. */
function lastLeaf(mapping: ChatGptConversation['mapping']): string | undefined {
  let leaf: string | undefined;
  for (const [id, node] of Object.entries(mapping)) if (!node.children || node.children.length === 0) leaf = id;
  return leaf;
}
