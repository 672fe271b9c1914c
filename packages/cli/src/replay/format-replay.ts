import type { Colors } from '../output/index.js';
import type { ReplayEvent } from './replay-recorder.js';
import type { ReplayResult } from './run-replay.js';

/** One line for an event as it happens: the call it came after, the session, and what happened. */
export function formatReplayEvent(event: ReplayEvent, colors: Colors): string {
  const where = colors.dim(
    `call ${String(event.call).padStart(3)}  ${event.sessionId === '' ? 'host' : event.sessionId}`,
  );
  return `  ${where}  ${describeEvent(event, colors)}`;
}

function describeEvent(event: ReplayEvent, colors: Colors): string {
  switch (event.kind) {
    case 'compaction': {
      const { report } = event;
      const summary = report.summary === undefined ? '' : `, summary: ${report.summary.source}`;
      return `${colors.magenta(`compaction (${report.reason}, ${report.engine})`)}: ${count(report.tokensBefore)} → ${count(report.tokensAfter)} tokens, ${report.messagesBefore} → ${report.messagesAfter} messages${summary}`;
    }
    case 'overflow':
      return `${colors.red('overflow')}: ${event.message}`;
    case 'error':
      return `${colors.red(`error (${event.errorKind})`)}: ${event.message}`;
    case 'recovery':
      return `${colors.green('recovered')}: ${event.text}${event.answeredAt === undefined ? '' : ` (it first answered again at call ${event.answeredAt})`}`;
    case 'recovery-failed':
      return `${colors.red('not recovered')}: ${event.text}`;
    case 'toast': {
      const level =
        event.level === 'warning' || event.level === 'error'
          ? colors.yellow(`toast [${event.level}]`)
          : colors.cyan(`toast [${event.level}]`);
      return `${level} ${event.title}: ${event.text}`;
    }
  }
}

/** What the sessions were: each main-thread segment (after the agent's own compaction) is a session of its own, as each subagent is. */
function sessionsMade(result: ReplayResult): string {
  if (result.sessions <= 1) return '';
  const subagents = result.sessions - result.segments;
  const main = result.segments > 1 ? `the main thread in ${result.segments} segments` : 'the main thread';
  return subagents > 0 ? ` (${main} and ${subagents} subagent${subagents === 1 ? '' : 's'})` : ` (${main})`;
}

/** The closing summary: what was replayed, the peak, compactions, overflows, tokens and dollars with and without caching. */
export function formatReplaySummary(result: ReplayResult, colors: Colors): string[] {
  const { cost } = result;
  return [
    colors.bold('Summary'),
    `  replayed ${result.answeredTurns} of ${result.recordedTurns} recorded assistant turns in ${result.sessions} session${result.sessions === 1 ? '' : 's'}${sessionsMade(result)}${result.repeatedTurns > 0 ? `; ${result.repeatedTurns} answered again after a recovery reverted them` : ''}`,
    `  peak context ${count(result.peak)} tokens (${Math.round((result.peak / result.window) * 100)}% of the ${count(result.window)}-token window${result.contextLimit === result.window ? '' : `, API limit ${count(result.contextLimit)}`})`,
    `  compactions ${result.compactions} (engine ${result.engine}, summarizer ${result.summarizer})${result.compactionsNotDone > 0 ? `; ${result.compactionsNotDone} tried and not done (each session said why once)` : ''}`,
    `  overflows ${result.overflows}${result.overflows === result.incidents ? '' : ` in ${result.incidents} incident${result.incidents === 1 ? '' : 's'}`}, recovered ${result.recoveries}${result.failedRecoveries > 0 ? `, not recovered ${result.failedRecoveries}` : ''}`,
    `  tokens ${count(cost.tokens.prompt)} prompt (${Math.round(cost.cacheHitRatio * 100)}% read from cache), ${count(cost.tokens.output)} output, over ${cost.requests} model calls`,
    `  cost ${dollars(cost.dollars)} with caching, ${dollars(cost.withoutCaching)} without (caching saved ${dollars(cost.dollarsSaved)}; ${pricesLine(result)})`,
    ...unpricedLines(result, colors),
    summarizerLine(result),
    ...transcriptLines(result),
  ];
}

function pricesLine(result: ReplayResult): string {
  if (result.modelOverride) return `every call priced as ${result.model}`;
  const models = result.cost.byModel.map(
    (cost) => `${cost.model} ${cost.requests} call${cost.requests === 1 ? '' : 's'}`,
  );
  return `each call priced as its recorded turn's model: ${models.join(', ') || 'none'}`;
}

function unpricedLines(result: ReplayResult, colors: Colors): string[] {
  return result.cost.byModel.flatMap((cost) =>
    cost.priced ? [] : [colors.yellow(`  ${cost.model}: ${cost.requests} calls not priced (${cost.reason})`)],
  );
}

/** What the replay rebuilt or left out of the transcript, said rather than hidden. */
function transcriptLines(result: ReplayResult): string[] {
  const lines: string[] = [];
  for (const [who, prefix] of [
    ['main thread', result.reconstructed.main],
    ['subagents', result.reconstructed.subagents],
  ] as const) {
    if (prefix === undefined) continue;
    lines.push(
      `  ${who}: system prompt and tools not in the transcript, reconstructed as ${count(prefix.tokens)} tokens (its first request reported ${count(prefix.recordedPrompt)}, its logged messages and tool definitions count ${count(prefix.loggedTokens)})`,
    );
  }
  if (result.segments > 1)
    lines.push(
      `  the agent compacted its own conversation ${result.segments - 1} time${result.segments === 2 ? '' : 's'}: the main thread replayed as ${result.segments} segments, each from the agent's summary, as the model saw it`,
    );
  if (result.uiOnlyMessages > 0)
    lines.push(
      `  ${result.uiOnlyMessages} UI-only line${result.uiOnlyMessages === 1 ? '' : 's'} left out (local commands and their output, interruptions): the model never saw them`,
    );
  lines.push(...unrecordedLines(result));
  return lines;
}

/** Where the replay's model calls and the recorded turns part: every call without a recorded turn is named with its reason. */
function unrecordedLines(result: ReplayResult): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const { sentWithNext, leftOut } = result.unansweredUserTurns;
  return [
    ...(sentWithNext > 0
      ? [
          `  ${plural(sentWithNext, 'user message')} with no recorded answer (interrupted) sent with the next one, as the agent sent them`,
        ]
      : []),
    ...(leftOut > 0
      ? [`  ${plural(leftOut, 'user message')} at the end with no recorded answer left out: no call replays them`]
      : []),
    ...(result.turnsEndedAfterTools > 0
      ? [
          `  ${plural(result.turnsEndedAfterTools, 'tool call')} with no recorded turn after its result (stopped by the user, or the transcript ends there): the turn ended there, the model was not asked`,
        ]
      : []),
    ...(result.unrecordedCalls > 0
      ? [
          `  ${plural(result.unrecordedCalls, 'model call')} ended on a message the transcript records no turn after: answered by the simulator's stand-in reply and priced`,
        ]
      : []),
  ];
}

function summarizerLine(result: ReplayResult): string {
  const spent = result.summarizerCost;
  if (spent === undefined) return '  summarizer calls went to the real API and are not priced here';
  return `  summarizer ${spent.calls} call${spent.calls === 1 ? '' : 's'}, ${count(spent.promptTokens)} prompt and ${count(spent.outputTokens)} output tokens, ${dollars(spent.dollars)} on top of the cost above`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function dollars(value: number): string {
  return `$${value.toFixed(2)}`;
}
