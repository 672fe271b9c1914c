export { createGatewayHandler, type GatewayHandler, type GatewayHandlerOptions } from './gateway-handler.js';
export { GATEWAY_TIMEOUTS, startGateway, type Gateway, type StartGatewayOptions } from './start-gateway.js';
export {
  GATEWAY_DEFAULTS,
  GatewaySectionSchema,
  gatewaySection,
  gatewaySettings,
  settingsFrom,
  type GatewaySection,
  type GatewaySettings,
} from './gateway-config.js';
export { createGatewayMetrics, type GatewayMetrics } from './gateway-metrics.js';
export { PROTOCOLS, matchProtocol } from './protocols/protocols.js';
export type { ProtocolName, WireProtocol, ReadRequest, RouteMatch } from './protocols/wire-protocol.js';
export { GATEWAY_ERROR_CODES, GatewayError, type GatewayErrorCode } from './errors.js';
