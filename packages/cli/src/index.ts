export { createProgram } from './program.js';
export { runCli } from './run-cli.js';
export {
  runDemo,
  registerDemoCommand,
  DEFAULT_DEMO_TRANSCRIPT,
  DEMO_WINDOW,
  DEMO_REPORT_FILE,
  type DemoOptions,
} from './commands/demo.js';
export { registerReplayCommand, replayTranscript, type ReplayCommandOptions } from './commands/replay.js';
export { buildInspectReport, type InspectReport, type InspectOptions } from './inspect-report.js';
export { runReplay, type ReplayOptions, type ReplayResult, type ReplayCost } from './replay/run-replay.js';
export { recordedFiles } from './replay/recorded-files.js';
export { priceRequests, type ModelCost } from './pricing.js';
export type { ReplayEvent, ReplayPoint } from './replay/replay-recorder.js';
export { renderReport, type ReportInput } from './report/render-report.js';
export { buildDemoReport, type DemoReport, type KindRow, type ToolOutputRow } from './demo-report.js';
export { formatTable, formatCount, type TableColumn } from './format-table.js';
export { CLI_ERROR_CODES, CliError, CliExit, type CliErrorCode } from './errors.js';
export * from './output/index.js';
export {
  runEval,
  type EvalOptions,
  type EvalResult,
  type EvalSample,
  type EvalEngineSummary,
  type EvalTranscript,
} from './eval/run-eval.js';
export { parseEngineSpecs, EVAL_ENGINES, type EvalEngineSpec } from './eval/eval-engines.js';
export { formatEval, evalRows, EVAL_COLUMNS } from './eval/format-eval.js';
export { renderEvalReport } from './report/render-eval-report.js';
