import { MemoryRules } from './memory-rules.ts';
import { describeRulesPort } from './rules-port-contract.ts';

describeRulesPort('MemoryRules', async () => ({ rules: new MemoryRules(), cleanup: async () => {} }));
