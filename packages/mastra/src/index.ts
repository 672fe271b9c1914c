export {
  createContextManagementProcessor,
  MASTRA_PROCESSOR,
  type ContextManagementProcessor,
  type ContextManagementProcessorOptions,
} from './context-management-processor.js';
export { stepReply, type StepChunk, type StepReply } from './step-reply.js';
export { MASTRA_ERROR_CODES, MastraIntegrationError, type MastraErrorCode } from './errors.js';
