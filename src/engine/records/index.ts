export * from './conversation.ts';
export * from './new-conversation.ts';
export * from './message.ts';
export * from './pause-point.ts';
export * from './ledger-entry.ts';
export * from './approval-rule.ts';
export * from './audit-event.ts';
export * from './usage.ts';
