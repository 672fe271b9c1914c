/** An error the simulator answers with, in the API's shape. */
export interface ApiError {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
  /** True for the validation rules about the request's shape (what ctxhost promises never to send). */
  shape?: boolean;
  /** Chat Completions only: the offending parameter and the error code (`context_length_exceeded`). */
  param?: string;
  code?: string;
}

export const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function apiError(status: number, message: string, extra: Partial<ApiError> = {}): ApiError {
  return { status, type: ERROR_TYPES[status] ?? 'api_error', message, ...extra };
}

export function invalid(message: string, shape = true): ApiError {
  return apiError(400, message, { shape });
}

export function errorBody(error: ApiError, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type: error.type, message: error.message }, request_id: requestId });
}
