import {
  createTokenCounter,
  estimateTextTokens,
  groupMessages,
  messageChars,
  type Message,
  type MessageGroupKind,
  type ToolResultPart,
} from '@ctxhost/core';

export interface KindRow {
  kind: MessageGroupKind;
  groups: number;
  messages: number;
  chars: number;
  tokens: number;
  orphans: number;
}

export interface ToolOutputRow {
  messageIndex: number;
  tool: string;
  callId: string;
  chars: number;
  tokens: number;
}

export interface DemoReport {
  kinds: KindRow[];
  total: Omit<KindRow, 'kind'>;
  largestToolOutputs: ToolOutputRow[];
}

const KIND_ORDER: readonly MessageGroupKind[] = ['system', 'user', 'assistant_text', 'tool_call', 'summary'];

/** Groups the messages (core's `groupMessages`, counted with the estimator) and finds the largest tool outputs. */
export function buildDemoReport(messages: readonly Message[], largest = 10): DemoReport {
  const groups = groupMessages(messages, { counter: createTokenCounter() });
  const kinds = KIND_ORDER.map((kind): KindRow => {
    const ofKind = groups.filter((group) => group.kind === kind);
    return {
      kind,
      groups: ofKind.length,
      messages: sum(ofKind.map((group) => group.messageCount)),
      chars: sum(ofKind.map((group) => group.chars)),
      tokens: sum(ofKind.map((group) => group.tokens)),
      orphans: ofKind.filter((group) => group.orphan).length,
    };
  }).filter((row) => row.groups > 0);
  const total: Omit<KindRow, 'kind'> = {
    groups: sum(kinds.map((row) => row.groups)),
    messages: sum(kinds.map((row) => row.messages)),
    chars: messages.reduce((chars, message) => chars + messageChars(message), 0),
    tokens: sum(kinds.map((row) => row.tokens)),
    orphans: sum(kinds.map((row) => row.orphans)),
  };
  return { kinds, total, largestToolOutputs: largestToolOutputs(messages, largest) };
}

function largestToolOutputs(messages: readonly Message[], largest: number): ToolOutputRow[] {
  const toolNames = new Map<string, string>();
  const rows: ToolOutputRow[] = [];
  messages.forEach((message, messageIndex) => {
    for (const part of message.parts) {
      if (part.type === 'tool-call') toolNames.set(part.callId, part.name);
      if (part.type !== 'tool-result') continue;
      const text = outputText(part);
      rows.push({
        messageIndex,
        tool: part.name ?? toolNames.get(part.callId) ?? '?',
        callId: part.callId,
        chars: text.length,
        tokens: estimateTextTokens(text),
      });
    }
  });
  return rows
    .sort((left, right) => right.chars - left.chars || left.messageIndex - right.messageIndex)
    .slice(0, largest);
}

function outputText(part: ToolResultPart): string {
  if (typeof part.output === 'string') return part.output;
  return part.output.map((item) => (item.type === 'text' ? item.text : '')).join('');
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
