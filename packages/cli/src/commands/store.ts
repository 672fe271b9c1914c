import type { Command } from 'commander';
import { runMigrateCommand } from '@ctxhost/store-postgres';

/** `ctxhost store migrate [--url URL] [--schema NAME]`: creates or upgrades the PostgreSQL store's schema. */
export function registerStoreCommand(program: Command, write: (text: string) => void): void {
  const store = program.command('store').description('manage a shared session store');
  store
    .command('migrate')
    .description('create or upgrade the PostgreSQL store schema (url from --url or DATABASE_URL)')
    .option('--url <url>', 'PostgreSQL connection string (default: DATABASE_URL)')
    .option('--schema <name>', 'schema to migrate (default: ctxhost)')
    .action(async (options: { url?: string; schema?: string }) => {
      const argv = [
        'migrate',
        ...(options.url === undefined ? [] : ['--url', options.url]),
        ...(options.schema === undefined ? [] : ['--schema', options.schema]),
      ];
      write(await runMigrateCommand(argv));
    });
}
