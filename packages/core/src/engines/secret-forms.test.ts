import { describe, expect, it } from 'vitest';
import { SECRET_FORMS, secretPieces } from '../../../../test/support/secret-forms.js';
import { createSecretRedactor } from './secret-redactor.js';

const redactor = createSecretRedactor();

describe('common secret forms', () => {
  it.each(SECRET_FORMS.map((form) => [form.name, form] as const))('redacts %s', (_name, form) => {
    const redacted = redactor.redactText(form.text);
    for (const piece of secretPieces(form.secret)) expect(redacted).not.toContain(piece);
    expect(redacted).toContain('[REDACTED:');
  });
});
