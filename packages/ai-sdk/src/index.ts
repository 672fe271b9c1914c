export {
  contextManagementMiddleware,
  AI_SDK_MIDDLEWARE,
  type ContextManagementMiddlewareOptions,
} from './context-management-middleware.js';
export { fromAiSdkMessage, type MappedMessage } from './from-ai-sdk-prompt.js';
export { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
export { AI_SDK_ERROR_CODES, AiSdkMiddlewareError, type AiSdkErrorCode } from './errors.js';
export { nativeProviderOptions, type NativeCarriage } from './native-provider-options.js';
