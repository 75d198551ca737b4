// Every migration, in order. Add new ones at the end; never edit one that has shipped.
import type { Migration } from 'kysely';
import type { Engine } from '../schema';
import { initial } from './001_initial';

export function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '001_initial': initial(engine),
  };
}
