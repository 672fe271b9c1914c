import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDER_SECRETS } from '../../../../test/support/provider-secrets.js';
import { createSecretRedactor } from './secret-redactor.js';

const redactor = createSecretRedactor();

describe('generated secrets of each provider’s format', () => {
  it.each(PROVIDER_SECRETS.map((provider) => [provider.name, provider] as const))(
    'never survive: %s',
    (_name, provider) => {
      fc.assert(
        fc.property(provider.secret, fc.string({ maxLength: 40 }), (secret, noise) => {
          const text = `${noise}\n${provider.around.replace('SECRET', secret)}\n${noise}`;
          expect(redactor.redactText(text)).not.toContain(secret);
        }),
        { numRuns: 50 },
      );
    },
  );
});
