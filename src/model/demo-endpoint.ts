/**
 * Where the demo model "lives": a reserved host that never resolves (`.invalid`,
 * RFC 2606), answered inside the worker, and its one model. Apart from the demo
 * model itself so the page's settings can name it without loading the openai SDK.
 */
export const DEMO_BASE_URL = 'https://demo.pausepoint.invalid/v1';
export const DEMO_MODEL_ID = 'pausepoint-demo';
