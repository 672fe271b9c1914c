/** The report's stylesheet, inlined so the page needs nothing else. */
export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; }
* { box-sizing: border-box; }
body { margin: 0; background: #f9fafb; color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 40px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 8px; }
.facts { color: var(--muted); margin: 0 0 16px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 16px; }
.cards { display: grid; grid-template-columns: repeat(6, 1fr); gap: 10px; background: none; border: 0; padding: 0; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
.card .value { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .note { color: var(--muted); font-size: 12px; }
.legend { margin: 0 0 6px; color: #374151; font-size: 13px; }
.key { display: inline-flex; align-items: center; gap: 5px; margin-right: 14px; white-space: nowrap; }
svg.chart { display: block; width: 100%; height: auto; }
svg.chart text { font: 11px system-ui, sans-serif; fill: #4b5563; }
svg.chart .axis-title { font-size: 12px; fill: #374151; }
svg.chart .line-label { font-size: 11px; font-weight: 600; }
svg.chart .grid { stroke: #f1f5f9; }
svg.chart .axis { stroke: #9ca3af; }
table { width: 100%; border-collapse: collapse; font-size: 12.5px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; }
th { color: var(--muted); font-weight: 600; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.empty { color: var(--muted); margin: 0; }
.incidents { margin: 0; padding-left: 18px; }
.incident-overflow, .incident-error, .incident-recovery-failed { color: #b91c1c; }
.incident-recovery { color: #15803d; }
.where { color: var(--muted); }
footer { color: var(--muted); font-size: 12px; }
@media (max-width: 800px) { .cards { grid-template-columns: repeat(2, 1fr); } }
`;
