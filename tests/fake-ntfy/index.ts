export { startFakeNtfy, type FakeNtfy, type FakeNtfyOptions, type NtfyPublish } from './start-fake-ntfy.ts';
