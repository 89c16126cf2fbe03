import type { ServerResponse } from 'node:http';
import type { FakeDatabase } from './fake-database.ts';

/** A request as the fake received it, for tests to assert on (headers lower-cased, prototype-free). */
export interface RecordedCouchRequest {
  method: string;
  /** Decoded path segments: `['pausepoint', '_changes']`. */
  path: string[];
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted failure: the next `remaining` requests that `matches` (all, when absent) answer `status` with CouchDB's error shape. */
export interface ScriptedFailure {
  status: number;
  /** CouchDB's `error` and `reason` words in the body. */
  error: string;
  reason: string;
  remaining: number;
  matches?: (request: RecordedCouchRequest) => boolean;
}

/** What pouchdb-server cannot do, scripted by the test; each counter is used up one request at a time. */
export interface FakeCouchFaults {
  /** Creates (PUT without `_rev`) that answer 202 Accepted instead of 201. */
  accepted202: number;
  /** Longpolls that are held: the socket stays open, nothing is ever written. */
  droppedLongpolls: number;
  failures: ScriptedFailure[];
}

export interface FakeCouchState {
  databases: Map<string, FakeDatabase>;
  faults: FakeCouchFaults;
  log: RecordedCouchRequest[];
  /** Responses held open by a dropped longpoll or waiting for a change; close() cuts them. */
  open: Set<ServerResponse>;
}
