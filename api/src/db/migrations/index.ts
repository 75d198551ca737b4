// Every migration, in order. Add new ones at the end; never edit one that has shipped.
import type { Migration } from 'kysely';
import type { Engine } from '../schema';
import { initial } from './001_initial';
import { uploads } from './002_uploads';
import { whitelabel } from './003_whitelabel';
import { fieldScans } from './004_field_scans';
import { loginThrottle } from './005_login_throttle';
import { pickList } from './006_pick_list';
import { dashboardFigures } from './007_dashboard_figures';
import { fleet } from './008_fleet';

export function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '001_initial': initial(engine),
    '002_uploads': uploads(engine),
    '003_whitelabel': whitelabel(engine),
    '004_field_scans': fieldScans(),
    '005_login_throttle': loginThrottle(engine),
    '006_pick_list': pickList(engine),
    '007_dashboard_figures': dashboardFigures(engine),
    '008_fleet': fleet(engine),
  };
}
