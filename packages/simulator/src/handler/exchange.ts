import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from '../wire/api-error.js';
import type { RecordedRequest } from './recorded-request.js';

/** One HTTP request being answered: what handlers and faults act on. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  requestId: string;
  record: RecordedRequest;
  body: unknown;
  fail(error: ApiError): void;
}
