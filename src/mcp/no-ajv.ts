/**
 * Stands in for the MCP SDK's Ajv validator in the app's build (see
 * vite.config.ts): the SDK's client module imports it even when given another
 * validator, and Ajv compiles schemas with `new Function`, which the app's
 * Content-Security-Policy refuses. The app always passes the CfWorker
 * validator, so this is never constructed; if it were, it says why it fails.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('Ajv is not bundled in Pausepoint: pass CfWorkerJsonSchemaValidator (no eval) instead.');
  }
}
