import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

/**
 * secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`,
 * MIT): one rule per provider (AWS, GCP, GitHub, GitLab, Slack, SendGrid, Stripe,
 * npm, OpenAI, Anthropic, Groq, Hugging Face, Linear, Notion, 1Password, Vault,
 * Vercel, Databricks, Docker, Figma, Cloudflare, Tailscale, Shopify, Grafana,
 * private keys, basic auth, database connection strings), kept up to date by
 * its maintainers as providers change their formats. The rules are run here
 * directly, synchronously, with a minimal context (they only call `report`),
 * instead of through secretlint's async linter, so redaction stays synchronous.
 */

/** The slice of secretlint's rule interface used here. */
interface SecretlintRule {
  meta: { id: string; type: string };
  create(
    context: {
      report(descriptor: { range: readonly [number, number] }): void;
      ignore(descriptor: unknown): void;
      createTranslator(messages: unknown): (...args: unknown[]) => string;
      sharedOptions: Record<string, unknown>;
    },
    options: Record<string, unknown>,
  ): { file?(source: { content: string; filePath: string; ext: string; contentType: 'text' }): unknown };
}

/** A stretch of text a rule reported as a secret, and the rule's short name (`github`, `aws`). */
export interface SecretRange {
  start: number;
  end: number;
  type: string;
}

const RULE_PREFIX = '@secretlint/secretlint-rule-';

/** Rules that do not find secrets in text: comment directives. */
const SKIPPED = new Set(['filter-comments']);

const RULES = (recommendedRules as unknown as SecretlintRule[]).filter(
  (rule) => rule.meta.type === 'scanner' && !SKIPPED.has(shortName(rule.meta.id)),
);

function shortName(id: string): string {
  return id.startsWith(RULE_PREFIX) ? id.slice(RULE_PREFIX.length) : id;
}

/** The rule names, for `redaction.disable` and the docs. */
export const SECRETLINT_RULE_NAMES: readonly string[] = RULES.map((rule) => shortName(rule.meta.id));

/** Every range the preset's rules report in `text` (possibly overlapping), leaving out the `disabled` rule names. */
export function secretlintRanges(text: string, disabled: ReadonlySet<string> = new Set()): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const rule of RULES) {
    const type = shortName(rule.meta.id);
    if (disabled.has(type)) continue;
    const handlers = rule.create(
      {
        report: ({ range }) => ranges.push({ start: range[0], end: range[1], type }),
        ignore: () => undefined,
        createTranslator: () => () => type,
        sharedOptions: {},
      },
      {},
    );
    handlers.file?.({ content: text, filePath: 'text.txt', ext: '.txt', contentType: 'text' });
  }
  return ranges;
}
