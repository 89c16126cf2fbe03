export { currentPath, onPath } from './current-path.ts';
export { fork, NO_VERSIONS } from './fork.ts';
export { lastAnswer } from './last-answer.ts';
export { makeCurrent } from './make-current.ts';
export { versionsAt, type VersionChoice } from './versions-at.ts';
