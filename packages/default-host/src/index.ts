export { createDefaultHost, loadDefaultHost, builtInPlugins, type DefaultHostOptions } from './create-default-host.js';
export { builtInConfigSections } from './built-in-config-sections.js';
export { reportConfigWarnings } from './report-config-warnings.js';
