export { createProgram } from './program.js';
export { runDemo, registerDemoCommand, DEFAULT_DEMO_TRANSCRIPT, type DemoOptions } from './commands/demo.js';
export { buildDemoReport, type DemoReport, type KindRow, type ToolOutputRow } from './demo-report.js';
export { formatTable, formatCount, type TableColumn } from './format-table.js';
