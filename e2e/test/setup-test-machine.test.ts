// scripts/setup-test-machine.ts, the first step of `pnpm test`: what is missing decides whether it
// installs Debian packages or stops with the command to run. The machine is a fake: nothing is installed.
import { NEEDED, setUpTestMachine, type Machine } from '../../scripts/setup-test-machine';

const program = (pkg: string) => NEEDED.find((needed) => needed.pkg === pkg)!.program;

/** A machine with `present` programs, apt-get run through `installer`; `commands` records what it ran. */
function fakeMachine({
  present,
  installer,
  nginxServiceRuns = false,
}: {
  present: string[];
  installer: string[] | null;
  nginxServiceRuns?: boolean;
}) {
  const commands: string[][] = [];
  const asked: string[] = [];
  const machine: Machine = {
    exists: (file) => present.includes(file),
    installer: () => {
      asked.push('installer');
      return installer;
    },
    run: (command) => commands.push(command),
    nginxServiceRuns: () => nginxServiceRuns,
    log: () => {},
  };
  return { machine, commands, asked };
}

const everything = () => NEEDED.map((needed) => needed.program);

test('with every program present, nothing is asked or run', () => {
  const { machine, commands, asked } = fakeMachine({ present: everything(), installer: [] });
  setUpTestMachine(machine);
  expect(asked).toEqual([]);
  expect(commands).toEqual([]);
});

test('as root, the missing packages alone are installed, without questions', () => {
  const { machine, commands } = fakeMachine({ present: [program('nginx')], installer: [] });
  setUpTestMachine(machine);
  expect(commands).toEqual([
    ['apt-get', 'update'],
    ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium', 'postgresql-15'],
  ]);
});

test("through sudo; Debian's nginx service, started by the install, is stopped", () => {
  const { machine, commands } = fakeMachine({
    present: [program('chromium'), program('postgresql-15')],
    installer: ['sudo', '-n'],
    nginxServiceRuns: true,
  });
  setUpTestMachine(machine);
  expect(commands).toEqual([
    ['sudo', '-n', 'apt-get', 'update'],
    ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'nginx'],
    ['sudo', '-n', 'nginx', '-s', 'quit'],
  ]);
});

test('an nginx service that ran before is left alone when nginx was not installed', () => {
  const { machine, commands } = fakeMachine({
    present: [program('nginx'), program('postgresql-15')],
    installer: [],
    nginxServiceRuns: true,
  });
  setUpTestMachine(machine);
  expect(commands).toHaveLength(2);
  expect(commands).not.toContainEqual(['nginx', '-s', 'quit']);
});

test('without the right to install, it stops at once naming the one command to run', () => {
  const { machine, commands } = fakeMachine({ present: [program('postgresql-15')], installer: null });
  expect(() => setUpTestMachine(machine)).toThrow('sudo apt-get update && sudo apt-get install -y chromium nginx');
  expect(commands).toEqual([]);
});
