import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

/** Defaults of `hooks.context-window-monitor` (fractions of the model's context window). */
export const MONITOR_DEFAULTS = {
  warn_at: 0.7,
  critical_at: 0.8,
} as const;

const fraction = z.number({ error: 'a number between 0 and 1' }).gt(0).lt(1);

export const MonitorConfigSchema = z
  .strictObject({
    warn_at: fraction.default(MONITOR_DEFAULTS.warn_at),
    critical_at: fraction.default(MONITOR_DEFAULTS.critical_at),
  })
  .refine((section) => section.warn_at < section.critical_at, {
    error: 'warn_at must be below critical_at',
    path: ['critical_at'],
  });

export type MonitorConfig = z.output<typeof MonitorConfigSchema>;

export const monitorConfigSection = defineConfigSection({ key: 'context-window-monitor', schema: MonitorConfigSchema });
