import type { Host } from './host.js';

/**
 * A plugin: a name (a module constant, used for every tap) and `apply`, where
 * all tapping happens. Built-in hooks are plugins whose names `disabled_hooks` lists.
 */
export interface Plugin {
  readonly name: string;
  apply(host: Host): void;
}
