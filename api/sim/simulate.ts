// `pnpm simulate`: runs the field simulator against a running server and prints its summary.
import { parseArgs } from 'node:util';
import { formatSummary, runSimulation } from './simulation';

const HELP = `pnpm simulate [options]   (the server must be running, e.g. pnpm start)
  --url URL            the console (default http://127.0.0.1:8080)
  --admin NAME         an admin or super_admin account (default admin_demo)
  --password TEXT      its password (default Veritas@123, or env VERITAS_SIM_PASSWORD)
  --operators N        field operators, spread over the hubs (default 8)
  --records N          items of the shipment to upload and work (default 400)
  --rate N             at most N app calls per second; 0 = as fast as answered (default 0)
  --seed N             seed of the random choices (default 1)`;

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    admin: { type: 'string', default: 'admin_demo' },
    password: { type: 'string', default: process.env.VERITAS_SIM_PASSWORD ?? 'Veritas@123' },
    operators: { type: 'string', default: '8' },
    records: { type: 'string', default: '400' },
    rate: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});

function count(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} must be a whole number ≥ ${min}, not '${text}'\n\n${HELP}`);
    process.exit(2);
  }
  return value;
}

async function main() {
  if (values.help) return console.log(HELP);
  const options = {
    url: values.url.replace(/\/+$/, ''),
    adminUser: values.admin,
    adminPassword: values.password,
    operators: count('operators', values.operators, 1),
    records: count('records', values.records, 1),
    rate: count('rate', values.rate, 0),
    seed: count('seed', values.seed, 0),
  };
  console.log(`Simulating ${options.operators} operators on ${options.records} items against ${options.url} …`);
  console.log(formatSummary(await runSimulation(options)));
}

main().catch((error: unknown) => {
  console.error(`simulate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
