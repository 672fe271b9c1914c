import { createMemoryStore } from './memory-store.js';
import { describeSessionStoreContract } from './store-contract.test-helper.js';

describeSessionStoreContract('memory store', () => createMemoryStore());
