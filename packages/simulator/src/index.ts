export { startSimulator, type Simulator, type SimulatorOptions, type ModelLimits, type OverflowStyle, type RecordedRequest } from './simulator.js';
export { countTokens, countTextTokens, TOKENIZER } from './tokenizer.js';
export { validateRequest, MAX_CACHE_BREAKPOINTS } from './validate-request.js';
export { createFaultPlan, mulberry32, FAULT_KINDS, type Fault, type FaultKind, type RandomFaults } from './faults.js';
export { buildSummary, isSummaryRequest, SUMMARY_HEADINGS } from './summary-responder.js';
export { defaultTurn, type ScriptedTurn } from './responders.js';
export { CACHE_LOOKBACK_BLOCKS } from './prompt-cache.js';
export type { MessagesRequest, ContentBlock, WireMessage, WireUsage, AssistantTurn } from './wire.js';
