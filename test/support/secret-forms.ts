/**
 * Common secret forms, each as it appears in a tool output, a tool input or a
 * message: `text` holds the secret `secret` somewhere. Shared by the redaction
 * tests and the redaction fuzz bench.
 */
export interface SecretForm {
  name: string;
  text: string;
  secret: string;
}

/** `around` with its last `SECRET` replaced by the secret. */
const form = (name: string, around: string, secret: string): SecretForm => {
  const at = around.lastIndexOf('SECRET');
  return { name, text: around.slice(0, at) + secret + around.slice(at + 'SECRET'.length), secret };
};

const base64 = (text: string): string => Buffer.from(text).toString('base64');

export const SECRET_FORMS: readonly SecretForm[] = [
  form('anthropic key', 'ANTHROPIC_API_KEY=SECRET', `sk-ant-api03-${'Ab3dEf9hIjK1mNoPqRsT'.repeat(4)}AA`),
  form('openai key', 'export OPENAI_API_KEY="SECRET"', `sk-proj-${'Ab3dEf9hIjK1mNoPqRsT'.repeat(3)}`),
  form(
    'github token',
    'git push https://SECRET@github.com/a/b',
    `ghp_${'Ab3dEf9hIjK1mNoPqRsT'.repeat(2).slice(0, 36)}`,
  ),
  form('aws access key', 'aws_access_key_id = SECRET', 'AKIAIOSFODNN7EXAMPLE'),
  form('gitlab token', 'GITLAB: SECRET', 'glpat-Ab3dEf9hIjK1mNoPqRsT'),
  form('hugging face token', 'use SECRET to download', `hf_${'Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789'.slice(0, 34)}`),
  form('groq key', 'GROQ: SECRET', `gsk_${'Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789AbCdEfGhIjKlMnOp'.slice(0, 52)}`),
  form(
    'sendgrid key',
    'mail with SECRET',
    `SG.${'Ab3dEf9hIjK1mNoPqRsTuV'}.${'Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789AbCdEfG'}`,
  ),
  form('google oauth token', 'got SECRET back', 'ya29.a0AfH6SMBx3kZ_Ab3dEf9hIjK1mNoPqRsT'),
  form('slack webhook', 'POST SECRET', 'https://hooks.slack.com/services/T01234567/B01234567/Ab3dEf9hIjK1mNoPqRsTuVwX'),
  form('basic auth header', 'Authorization: Basic SECRET', 'dXNlcjpodW50ZXIyLXBhc3M='),
  form('x-api-key header', 'curl -H "x-api-key: SECRET" https://api', 'k3y-Ab3dEf9hIjK1mNo'),
  form('azure api-key header', 'api-key: SECRET', '0123456789abcdef0123456789abcdef'),
  form(
    'azure AccountKey',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=SECRET;EndpointSuffix=core.windows.net',
    'Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789Ab3dEf9h==',
  ),
  form(
    'azure SAS sig',
    'https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=SECRET&se=2030',
    'Ab3dEf9hIjK1mNoPqRsT%2Bu%3D',
  ),
  form(
    'gcp private_key_id',
    '{"type": "service_account", "private_key_id": "SECRET"}',
    '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
  ),
  form('redis password', 'REDIS_URL=redis://:SECRET@cache:6379/0', 'r3dis-Pass-word'),
  form('password with slash and at', 'db: mysql://root:SECRET@db.internal/app', 'p@ss/w0rd'),
  form('password with spaces', "password: 'SECRET'", 'correct horse battery staple'),
  form('django SECRET_KEY', "SECRET_KEY = 'SECRET'", 'django-insecure-9x#k2!m@p0q'),
  form('refresh_token', 'grant_type=refresh_token&refresh_token=SECRET&client_id=x', '1//0gAb3dEf9hIjK1mNoPqRsT'),
  form('DB_PASS', 'DB_PASS=SECRET', 'Tr0ub4dor3x'),
  form('NPM_TOKEN', 'NPM_TOKEN=SECRET', 'npm_Ab3dEf9hIjK1mNoPqRsTuVwXyZ012345678'),
  form('json token', '{"token": "SECRET"}', 'tok-Ab3dEf9hIjK1mNoPq'),
  form('json inside a json string', '{"body": "{\\"password\\": \\"SECRET\\"}"}', 'pa55-w0rd-inner'),
  form('url-encoded pair', 'q=a&password%3DSECRET%26x%3D1', 'hunter2secret'),
  form('mysql -p', 'mysql -u root -pSECRET app < dump.sql', 'Sup3rS3cret'),
  form('base64 of a .env line', 'data: SECRET', base64('DB_PASSWORD=hunter2-hunter2\n')),
  form('docker auths', '{"auths": {"https://index.docker.io/v1/": {"auth": "SECRET"}}}', base64('user:d0cker-pass')),
  form(
    'key wrapped over two lines',
    'ANTHROPIC_API_KEY=SECRET',
    `sk-ant-api03-${'Ab3dEf9hIjK1mNoPqRsT'.repeat(2)}\n${'Ab3dEf9hIjK1mNoPqRsT'.repeat(2)}AA`,
  ),
  form('bearer token', 'Authorization: Bearer SECRET', 'Ab3dEf9hIjK1mNoPqRsTuVwXyZ'),
  form('stripe key', 'stripe = SECRET', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'),
  form(
    'private key',
    'id_rsa:\nSECRET\n',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
  ),
  form('high-entropy token next to its name', 'the deploy token is SECRET, keep it', 'q8Zr2Lx7Vb4Nt6Wm1Kp3'),
];

/** The stretches of a secret that must not survive: a wrapped key's lines each. */
export function secretPieces(secret: string): string[] {
  return secret.split('\n').filter((piece) => piece.length >= 6);
}
