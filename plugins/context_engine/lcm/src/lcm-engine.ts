import {
  createSecretRedactor,
  redactMessages,
  secretRedactorFromConfig,
  type CompactionReport,
  type ContextEngine,
  type ContextEngineFactory,
  type EngineToolContext,
  type JsonValue,
  type Message,
  type SecretRedactor,
  type Summarizer,
  type SummarySource,
  type ToolDefinition,
} from '@ctxhost/core';
import { extractSummary, messageText } from './node-summary.js';
import { addNode, coveringNodes, createSummaryDag, expandNode, type SummaryDag } from './summary-dag.js';

export const LCM = 'lcm';

export interface LcmOptions {
  /** Compress when the prompt reaches this share of the window (default 0.6). */
  threshold?: number;
  /** Share of the window kept verbatim at the end (default 0.25). */
  tailShare?: number;
  /** Summary nodes in view at most; beyond, the oldest are merged into a parent node (default 4). */
  maxNodesInView?: number;
  summarizer?: Summarizer;
  /** Applied to what reaches the summarizer and to every node summary (default: core's built-in patterns). The originals stay in the DAG and the store. */
  redactor?: SecretRedactor;
}

const TOOLS: ToolDefinition[] = [
  {
    name: 'lcm_grep',
    description:
      'Search the whole conversation history, including parts compacted away, by text or regular expression. Returns matching lines with the message id and the summary node that covers it.',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, regex: { type: 'boolean' }, limit: { type: 'number' } },
      required: ['pattern'],
    },
  },
  {
    name: 'lcm_expand',
    description: 'Return the original messages behind a summary node (for example lcm-3), within a token budget.',
    inputSchema: {
      type: 'object',
      properties: { node_id: { type: 'string' }, max_tokens: { type: 'number' } },
      required: ['node_id'],
    },
  },
];

/**
 * Lossless context management: the span it compacts becomes a summary node
 * that names what it covers; summaries of summaries form a DAG, so any
 * session compacts to a bounded view while every original stays reachable
 * through `lcm_expand` (and in the host's store, verbatim).
 */
export function createLcmEngine(options: LcmOptions = {}): ContextEngine {
  const dags = new Map<string, SummaryDag>();
  const dagOf = (sessionId: string) => dags.get(sessionId) ?? dags.set(sessionId, createSummaryDag()).get(sessionId)!;
  const threshold = options.threshold ?? 0.6;

  return {
    name: LCM,
    shouldCompress: (state) =>
      state.contextWindow !== undefined && state.promptTokens >= state.contextWindow * threshold,
    tools: () => TOOLS,
    async compress(messages, context) {
      const dag = dagOf(context.sessionId);
      const tokensBefore = context.counter.countAll(messages);
      const head = messages.filter((message, index) => message.role === 'system' && index === 0);
      const tailStart = tailStartOf(
        messages,
        context.counter.count.bind(context.counter),
        context.contextWindow * (options.tailShare ?? 0.25),
      );
      const span = messages.slice(head.length, tailStart);
      let view: Message[] = [...messages];
      let summary: CompactionReport['summary'];
      if (span.length > 0) {
        const leaves = span.filter((message) => message.meta?.summary?.engine !== LCM);
        for (const message of leaves) dag.originals.set(message.id, message);
        const nodeIds = span.map((message) => (message.meta?.summary?.engine === LCM ? nodeIdOf(message) : undefined));
        const summarizer = context.summarizer ?? options.summarizer;
        let source: SummarySource = 'extractive';
        const redactor = options.redactor ?? DEFAULT_REDACTOR;
        const shown = redactMessages(leaves, redactor);
        const written =
          summarizer === undefined
            ? extractSummary(shown)
            : await summarizer
                .summarize({
                  messages: shown,
                  instructions: 'Summarize these turns in a few lines: requests, actions, files, results, errors.',
                  maxOutputTokens: 800,
                  ...(context.signal === undefined ? {} : { signal: context.signal }),
                })
                .then((written) => {
                  source = 'model';
                  return written;
                })
                .catch(() => extractSummary(shown));
        const text = redactor.redactText(written);
        const covers = [
          ...nodeIds.filter((id): id is string => id !== undefined),
          ...leaves.map((message) => message.id),
        ];
        const node = addNode(dag, 0, covers, text);
        view = [...head, nodeMessage(node.id, covers.length, text), ...messages.slice(tailStart)];
        summary = { tokens: context.counter.countText(text), source, messagesCovered: span.length };
      }
      view = mergeOldNodes(dag, view, options.maxNodesInView ?? 4);
      return {
        messages: view,
        report: {
          engine: LCM,
          reason: context.reason,
          tokensBefore,
          tokensAfter: context.counter.countAll(view),
          messagesBefore: messages.length,
          messagesAfter: view.length,
          ...(summary === undefined ? {} : { summary }),
        },
      };
    },
    async callTool(name, input, context) {
      const dag = dagOf(context.sessionId);
      if (name === 'lcm_grep') return grep(dag, input, context);
      if (name === 'lcm_expand') return expand(dag, input);
      return { output: `lcm has no tool named ${name}`, isError: true };
    },
  };
}

/** The factory a plugin folder exports (default export) and `registerContextEngine` takes. */
export const lcmEngineFactory: ContextEngineFactory = ({ summarizer, config }) =>
  createLcmEngine({
    redactor: secretRedactorFromConfig(config.redaction),
    ...(summarizer === undefined ? {} : { summarizer }),
  });

const DEFAULT_REDACTOR = createSecretRedactor();

function tailStartOf(messages: readonly Message[], count: (message: Message) => number, budget: number): number {
  let start = messages.length;
  let spent = 0;
  while (start > 1 && spent + count(messages[start - 1]!) <= budget) spent += count(messages[--start]!);
  start = Math.min(start, Math.max(1, messages.length - 2));
  while (start > 1 && messages[start]?.role === 'tool') start--;
  return start;
}

function nodeMessage(nodeId: string, covered: number, summary: string): Message {
  return {
    id: `${nodeId}-view`,
    role: 'user',
    parts: [
      {
        id: `${nodeId}-view:0`,
        type: 'text',
        text: `[lcm summary node ${nodeId}: ${covered} earlier items; call lcm_expand with node_id "${nodeId}" for the originals]\n${summary}`,
      },
    ],
    meta: { summary: { covers: [nodeId], engine: LCM, source: 'extractive' } },
  };
}

function nodeIdOf(message: Message): string | undefined {
  const covers = message.meta?.summary?.covers;
  return Array.isArray(covers) ? covers[0] : undefined;
}

/** Keeps at most `max` summary nodes in view: the oldest are merged into a parent node. */
function mergeOldNodes(dag: SummaryDag, view: Message[], max: number): Message[] {
  const nodeMessages = view.filter((message) => message.meta?.summary?.engine === LCM);
  if (nodeMessages.length <= max) return view;
  const merged = nodeMessages.slice(0, nodeMessages.length - max + 1);
  const childIds = merged.map((message) => nodeIdOf(message)!);
  const summary = childIds.map((id) => dag.nodes.get(id)?.summary ?? '').join('\n');
  const parent = addNode(
    dag,
    Math.max(...childIds.map((id) => dag.nodes.get(id)?.level ?? 0)) + 1,
    childIds,
    summary.slice(0, 2000),
  );
  const replacement = nodeMessage(parent.id, childIds.length, parent.summary);
  const first = view.indexOf(merged[0]!);
  return [
    ...view.slice(0, first).filter((message) => !merged.includes(message)),
    replacement,
    ...view.slice(first).filter((message) => !merged.includes(message)),
  ];
}

function grep(dag: SummaryDag, input: JsonValue, context: EngineToolContext) {
  const { pattern, regex, limit } = (input ?? {}) as { pattern?: unknown; regex?: unknown; limit?: unknown };
  if (typeof pattern !== 'string' || pattern.length === 0)
    return { output: 'lcm_grep needs a non-empty "pattern"', isError: true };
  let matcher: RegExp;
  try {
    matcher =
      regex === true ? new RegExp(pattern, 'i') : new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  } catch (error) {
    return { output: `lcm_grep: invalid regular expression: ${String(error)}`, isError: true };
  }
  const history = context.history?.() ?? [...dag.originals.values()];
  const covering = coveringNodes(dag);
  const hits: string[] = [];
  for (const message of history) {
    for (const line of messageText(message).split('\n')) {
      if (!matcher.test(line)) continue;
      hits.push(
        `${message.id}${covering.has(message.id) ? ` (in ${covering.get(message.id)})` : ''}: ${line.trim().slice(0, 200)}`,
      );
      if (hits.length >= (typeof limit === 'number' ? limit : 20)) return { output: hits.join('\n') };
    }
  }
  return {
    output: hits.length > 0 ? hits.join('\n') : `no match for ${JSON.stringify(pattern)} in ${history.length} messages`,
  };
}

function expand(dag: SummaryDag, input: JsonValue) {
  const { node_id: nodeId, max_tokens: maxTokens } = (input ?? {}) as { node_id?: unknown; max_tokens?: unknown };
  if (typeof nodeId !== 'string' || !dag.nodes.has(nodeId))
    return {
      output: `lcm_expand: no summary node ${JSON.stringify(nodeId)}; nodes: ${[...dag.nodes.keys()].join(', ') || 'none yet'}`,
      isError: true,
    };
  const budgetChars = (typeof maxTokens === 'number' ? maxTokens : 4000) * 4;
  const lines: string[] = [];
  let used = 0;
  const originals = expandNode(dag, nodeId);
  for (const message of originals) {
    const text = `${message.id} ${message.role}: ${messageText(message)}`;
    if (used + text.length > budgetChars) {
      lines.push(
        `[… ${originals.length - lines.length} more messages over the ${budgetChars / 4}-token budget; call again with a larger max_tokens]`,
      );
      break;
    }
    lines.push(text);
    used += text.length;
  }
  return { output: lines.join('\n\n') };
}
