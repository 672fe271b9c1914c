export {
  createSessionHygiene,
  SESSION_HYGIENE,
  HYGIENE_THRESHOLD,
  HYGIENE_MIN_MESSAGES,
  HYGIENE_WARN_AT,
} from './session-hygiene.js';
export { sessionHygieneConfigSection, SessionHygieneConfigSchema } from './config.js';
