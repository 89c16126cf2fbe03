export { startFakeCouch, type FakeCouch, type FakeCouchOptions } from './start-fake-couch.ts';
export type { RecordedCouchRequest } from './fake-couch-state.ts';
export type { FakeDatabase, ChangeRow } from './fake-database.ts';
