/** What the page posts its agent worker once its first screen is painted: start now, if no intent has started it yet. */
export const START_AGENT = 'pausepoint:start-agent';
