/**
 * Run by import-stream.test.ts in a Node process whose heap is capped far
 * below the stream's size (`--max-old-space-size`): imports a synthetic
 * ChatGPT export of `conversations` conversations made as it is read, through
 * the reader, the conversion and the inert path into a CountingSink, then
 * prints what it counted and the bytes read as JSON. Were any stage to hold
 * the file, V8 would end the process with an out-of-memory error.
 */
import '../../zod-config.ts';
import { importConversationStream } from '../import-conversations.ts';
import { CountingSink } from './counting-sink.ts';
import { syntheticExportStream } from './synthetic-chatgpt-export.ts';

const conversations = Number(process.argv[2]);
const sink = new CountingSink();
let peak = 0;
const result = await importConversationStream(syntheticExportStream({ conversations, messagesPerConversation: 50, textBytes: 2_000 }), sink, {
  onProgress: () => (peak = Math.max(peak, process.memoryUsage().heapUsed)),
});
process.stdout.write(JSON.stringify({ result, sink: { conversations: sink.conversations, messages: sink.messages, batches: sink.batches }, peakHeap: peak }));
