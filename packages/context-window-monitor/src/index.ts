export {
  createContextWindowMonitor,
  CONTEXT_WINDOW_MONITOR,
  type ContextWindowMonitorOptions,
} from './context-window-monitor.js';
export { MonitorConfigSchema, MONITOR_DEFAULTS, monitorConfigSection, type MonitorConfig } from './config.js';
export { createThresholdLatch, type ThresholdLatch } from './threshold-latch.js';
