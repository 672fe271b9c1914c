import type { ToolOutputRow } from './demo-report.js';
import { formatCount, formatTable } from './format-table.js';

/** The largest tool outputs as a console table (inspect and the demo print the same one). */
export function toolOutputTable(outputs: readonly ToolOutputRow[]): string {
  if (outputs.length === 0) return '(no tool outputs)';
  const columns = [
    { header: '#', align: 'right' as const },
    { header: 'message', align: 'right' as const },
    { header: 'tool' },
    { header: 'call id' },
    { header: 'characters', align: 'right' as const },
    { header: 'tokens', align: 'right' as const },
  ];
  return formatTable(
    columns,
    outputs.map((output, index) => [
      String(index + 1),
      String(output.messageIndex),
      output.tool,
      output.callId,
      formatCount(output.chars),
      formatCount(output.tokens),
    ]),
  );
}
