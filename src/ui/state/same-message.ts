import type { Message, PausePoint } from '../../engine/records/index.ts';

/** Whether two reads of a message would render the same. */
export function sameMessage(a: Message, b: Message): boolean {
  if (a.id !== b.id || a.seq !== b.seq || a.role !== b.role || a.content !== b.content) return false;
  if (a.role === 'assistant' && b.role === 'assistant') {
    return (
      a.status === b.status &&
      a.toolCalls.length === b.toolCalls.length &&
      a.toolCalls.every((call, i) => call.id === b.toolCalls[i]?.id && call.arguments === b.toolCalls[i]?.arguments)
    );
  }
  if (a.role === 'tool' && b.role === 'tool') return a.outcome === b.outcome;
  return true;
}

/** Whether two reads of a pause point would render the same card. Pause points are small. */
export function samePausePoint(a: PausePoint, b: PausePoint): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
