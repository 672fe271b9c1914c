import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';
import { SESSION_HYGIENE } from './session-hygiene.js';

/**
 * Session hygiene has no settings: a `hooks.session-hygiene` key is an error that
 * says so and where to go instead, never a value accepted and then ignored.
 */
export const SessionHygieneConfigSchema = z.strictObject(
  {},
  {
    error:
      'no keys: session hygiene has no settings (it compacts at a fixed 85% of the window down to compression.threshold); turn it off with disabled_hooks: [session-hygiene]',
  },
);

export const sessionHygieneConfigSection = defineConfigSection({
  key: SESSION_HYGIENE,
  schema: SessionHygieneConfigSchema,
});
