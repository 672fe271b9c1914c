import type { Fault } from './fault-kinds.js';
import type { WireUsage } from '../wire/wire.js';

/** One request the simulator received, as `simulator.requests` lists it. */
export interface RecordedRequest {
  requestId: string;
  method: string;
  path: string;
  /** Request headers, lower-case names (repeated ones joined with ", "). */
  headers: Record<string, string>;
  /** The betas of the `anthropic-beta` header. */
  betas: string[];
  /** The parsed JSON body (undefined when it was not JSON or over the byte limit). */
  body: unknown;
  /** The HTTP status answered (200 for a stream, even one that then sent an error event). */
  status: number;
  stream: boolean;
  /** Rejected by a rule about the request's shape (orphan tool results, empty content, …). */
  rejectedForShape: boolean;
  /** The error message answered, if any. */
  error?: string;
  fault?: Fault['kind'];
  usage?: WireUsage;
  stopReason?: string;
}
