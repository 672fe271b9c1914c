import { lcmEngineFactory } from './lcm-engine.js';

export { createLcmEngine, lcmEngineFactory, LCM, type LcmOptions } from './lcm-engine.js';
export { createSummaryDag, expandNode, type SummaryDag, type SummaryNode } from './summary-dag.js';
/** Folder loading (`context_engine/lcm/` on `plugin_dirs`) imports the default export as the factory. */
export default lcmEngineFactory;
