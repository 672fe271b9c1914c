export {
  createContextManagement,
  OPENAI_AGENTS,
  type ContextManagement,
  type ContextManagementOptions,
} from './context-management.js';
export { fromAgentItem, type InstructionsItem, type MirrorItem } from './from-agent-items.js';
export { toAgentItems } from './to-agent-items.js';
export { OPENAI_AGENTS_ERROR_CODES, OpenaiAgentsIntegrationError, type OpenaiAgentsErrorCode } from './errors.js';
