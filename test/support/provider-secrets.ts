import fc from 'fast-check';

/**
 * Generators of secrets in each provider's real format (prefix, alphabet,
 * length as the providers document and secretlint's rules read them), and the
 * text around one. For the redaction fuzz test and the redaction bench.
 */
export interface ProviderSecret {
  name: string;
  /** Where the secret sits: `SECRET` is replaced by it. */
  around: string;
  secret: fc.Arbitrary<string>;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const URL_SAFE = `${ALNUM}_-`;

/** `length` characters from `alphabet`, always with a digit and a letter (a real key has both). */
const chars = (alphabet: string, min: number, max = min): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max })
    .map((list) => list.join(''))
    .map((text) => (/[0-9]/.test(alphabet) && !/[0-9]/.test(text) ? `7${text.slice(1)}` : text))
    .map((text) => (/[A-Za-z]/.test(alphabet) && !/[A-Za-z]/.test(text) ? `k${text.slice(1)}` : text));

const prefixed = (prefix: string, body: fc.Arbitrary<string>, suffix = ''): fc.Arbitrary<string> =>
  body.map((text) => `${prefix}${text}${suffix}`);

export const PROVIDER_SECRETS: readonly ProviderSecret[] = [
  {
    name: 'anthropic',
    around: 'ANTHROPIC_API_KEY=SECRET',
    secret: prefixed('sk-ant-api03-', chars(URL_SAFE, 93), 'AA'),
  },
  {
    name: 'openai',
    around: 'client = OpenAI(api_key="SECRET")',
    secret: prefixed('sk-proj-', chars(URL_SAFE, 48, 156)),
  },
  {
    name: 'github classic',
    around: 'remote: https://SECRET@github.com/o/r',
    secret: prefixed('ghp_', chars(ALNUM, 36)),
  },
  { name: 'github fine-grained', around: 'GH_TOKEN SECRET', secret: prefixed('github_pat_', chars(`${ALNUM}_`, 82)) },
  { name: 'gitlab', around: 'token: SECRET', secret: prefixed('glpat-', chars(URL_SAFE, 20)) },
  { name: 'aws access key', around: 'id SECRET', secret: prefixed('AKIA', chars(UPPER_DIGITS, 16)) },
  { name: 'google api key', around: 'maps key SECRET', secret: prefixed('AIza', chars(URL_SAFE, 35)) },
  {
    name: 'slack bot',
    around: 'SLACK SECRET',
    secret: prefixed(
      'xoxb-',
      chars('0123456789', 12).map((digits) => `${digits}-${digits}-`),
    ).chain((head) => prefixed(head, chars(ALNUM, 24))),
  },
  { name: 'stripe live', around: 'stripe SECRET', secret: prefixed('sk_live_', chars(ALNUM, 24, 99)) },
  {
    name: 'sendgrid',
    around: 'mail SECRET',
    secret: fc.tuple(chars(URL_SAFE, 22), chars(URL_SAFE, 43)).map(([a, b]) => `SG.${a}.${b}`),
  },
  { name: 'hugging face', around: 'HF SECRET', secret: prefixed('hf_', chars(ALNUM, 34)) },
  { name: 'groq', around: 'GROQ SECRET', secret: prefixed('gsk_', chars(ALNUM, 52)) },
  { name: 'npm', around: '//registry.npmjs.org/:_authToken=SECRET', secret: prefixed('npm_', chars(ALNUM, 36)) },
  { name: 'google oauth', around: 'Authorization: Bearer SECRET', secret: prefixed('ya29.', chars(URL_SAFE, 60, 160)) },
  {
    name: 'jwt',
    around: 'cookie session=SECRET; Path=/',
    secret: fc
      .tuple(chars(URL_SAFE, 20, 60), chars(URL_SAFE, 20, 200), chars(URL_SAFE, 43))
      .map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  },
  {
    name: 'azure storage key',
    around: 'AccountName=a;AccountKey=SECRET;EndpointSuffix=core.windows.net',
    secret: prefixed('', chars(`${ALNUM}+/`, 86), '=='),
  },
  { name: 'database password', around: 'postgres://app:SECRET@db:5432/app', secret: chars(`${ALNUM}!#$%^*@/`, 12, 32) },
  {
    name: 'env password',
    around: 'DB_PASSWORD=SECRET',
    // A value that opens with `$` reads as a variable reference (`DB_PASSWORD=$DB_PASS`), which redaction keeps by design.
    secret: chars(`${ALNUM}!#$%^*@/ `, 8, 32).map((text) => (text.trim() || 'p4ss').replace(/^\$/, 'p$')),
  },
  { name: 'hex api key', around: '{"api_key": "SECRET"}', secret: chars(HEX, 32, 64) },
];
