export {
  createPreemptiveCompaction,
  PREEMPTIVE_COMPACTION,
  type PreemptiveCompactionOptions,
} from './preemptive-compaction.js';
export { createPreemptiveNotice, NOTICE_KIND, NOTICE_PREFIX } from './preemptive-notice.js';
export {
  PreemptiveConfigSchema,
  PREEMPTIVE_DEFAULTS,
  preemptiveConfigSection,
  type PreemptiveConfig,
} from './config.js';
