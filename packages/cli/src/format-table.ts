export interface TableColumn {
  header: string;
  /** Numbers read best right-aligned. Default 'left'. */
  align?: 'left' | 'right';
}

/** Renders rows as an aligned plain-text table: a header, a rule, then the rows. */
export function formatTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const render = (cells: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        return column.align === 'right' ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [render(columns.map((column) => column.header)), rule, ...rows.map(render)].join('\n');
}

/** 12345 → "12,345" */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
