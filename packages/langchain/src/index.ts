export {
  contextManagementMiddleware,
  LANGCHAIN_MIDDLEWARE,
  type ContextManagementMiddlewareOptions,
} from './context-management-middleware.js';
export { fromLangChainMessage } from './from-langchain-message.js';
export { toLangChainRequest, type LangChainRequest } from './to-langchain-messages.js';
export { overflowOf, unwrapProviderError } from './provider-error.js';
export { LANGCHAIN_ERROR_CODES, LangchainIntegrationError, type LangchainErrorCode } from './errors.js';
