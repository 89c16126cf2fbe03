import { MemoryStorage } from './memory-storage.ts';
import { describeStoragePort } from './storage-port-contract.ts';

describeStoragePort('MemoryStorage', async () => ({ storage: new MemoryStorage(), cleanup: async () => {} }));
