export { startFakeLlm, type FakeLlm, type FakeLlmOptions } from './start-fake-llm.ts';
export type { Reply, MessageReply, ScriptedToolCall, StatusFault, DropFault, HangFault, SlowHeadersFault } from './reply.ts';
export type { ReplyRule } from './reply-script.ts';
export type { RecordedRequest, RecordedChatRequest } from './recorded-request.ts';
export type { ChatRequestBody, ChatMessage } from './chat-request-body.ts';
export { messageText } from './message-text.ts';
export { parseReply, parseReplies } from './parse-reply.ts';
