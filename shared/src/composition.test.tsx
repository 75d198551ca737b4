// Slots (composition.tsx, docs/architecture.md#composition): a page renders the extensions the
// composition has for a slot it offers, in order, each with the slot's props; one that throws or
// cannot be loaded renders nothing, and none holds the host page back while it loads.
import { act, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import type { ComposedExtension, Composition } from './api/composition';
import { provideModuleLoader, setComposition, Slot, useComposition } from './composition';
import { makeRecord } from './testing/records';

/** The loader the shell provides: here the modules of `modules` by id ('b/First' for b's './First'). */
function provide(modules: Record<string, Promise<unknown>>): jest.Mock {
  const loadModule = jest.fn((remote: string, module: string) => {
    const id = `${remote}/${module.slice(2)}`;
    return modules[id] ?? Promise.reject(new Error(`${id} is not deployed`));
  });
  provideModuleLoader(loadModule);
  return loadModule;
}

const exported = (component: ComponentType<never>) => Promise.resolve({ default: component });

// Slot keeps one load per extension and entry for the page's life: each test has entries of its own.
let run = 0;
beforeEach(() => run++);

/** A composition whose remotes `a` and `b` are at entries of this test, with `extensions`. */
function compose(extensions: ComposedExtension[]): void {
  const composition: Composition = {
    viewer: 'asha',
    remotes: {
      a: { entry: `http://127.0.0.1/${run}/a/mf-manifest.json` },
      b: { entry: `http://127.0.0.1/${run}/b/mf-manifest.json` },
    },
    pages: [],
    menus: [],
    extensions,
    unavailable: [],
    home: null,
    features: [],
  };
  act(() => setComposition(composition));
}

afterEach(() => useComposition.setState({ composition: null, loadModule: null }));

const record = makeRecord({ id: 7, tracking_id: { tracking_id: 'TRK-7' } });

/** A host page with the Device Details slot between two texts of its own. */
function Host() {
  return (
    <section>
      <p>Host before</p>
      <Slot name="device-details.section" props={{ record }} />
      <p>Host after</p>
    </section>
  );
}

const Section =
  (label: string) =>
  ({ record: shown }: { record: { tracking_id: { tracking_id: string } } }) => (
    <p data-testid="contribution">{`${label} for ${shown.tracking_id.tracking_id}`}</p>
  );

function Throws(): never {
  throw new Error('broken on purpose');
}

test("renders the slot's contributions in the composition's order, each with the slot's props; other slots' are not", async () => {
  provide({
    'b/First': exported(Section('First')),
    'a/Second': exported(Section('Second')),
    'a/Tile': exported(() => <p>a tile</p>),
  });
  compose([
    { slot: 'device-details.section', remote: 'b', module: './First' },
    { slot: 'dashboard.tile', remote: 'a', module: './Tile' },
    { slot: 'device-details.section', remote: 'a', module: './Second' },
  ]);
  render(<Host />);

  expect(await screen.findAllByTestId('contribution')).toHaveLength(2);
  expect(screen.getAllByTestId('contribution').map((p) => p.textContent)).toEqual([
    'First for TRK-7',
    'Second for TRK-7',
  ]);
  expect(screen.queryByText('a tile')).not.toBeInTheDocument();
});

test('one that throws while rendering leaves the host and the other contributions rendered, and is logged', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  provide({ 'a/Broken': exported(Throws), 'b/Fine': exported(Section('Fine')) });
  compose([
    { slot: 'device-details.section', remote: 'a', module: './Broken' },
    { slot: 'device-details.section', remote: 'b', module: './Fine' },
  ]);
  render(<Host />);

  expect(await screen.findByText('Fine for TRK-7')).toBeInTheDocument();
  expect(screen.getByText('Host before')).toBeInTheDocument();
  expect(screen.getByText('Host after')).toBeInTheDocument();
  expect(log).toHaveBeenCalledWith('The extension a/Broken failed', expect.any(Error));
  log.mockRestore();
});

test('one that cannot be loaded, or exports nothing to render, renders nothing; the others do', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  provide({ 'a/Empty': Promise.resolve({}), 'b/Fine': exported(Section('Fine')) });
  compose([
    { slot: 'device-details.section', remote: 'a', module: './Missing' },
    { slot: 'device-details.section', remote: 'a', module: './Empty' },
    { slot: 'device-details.section', remote: 'b', module: './Fine' },
  ]);
  render(<Host />);

  expect(await screen.findByText('Fine for TRK-7')).toBeInTheDocument();
  expect(screen.getAllByTestId('contribution')).toHaveLength(1);
  expect(screen.getByText('Host after')).toBeInTheDocument();
  expect(log).toHaveBeenCalledWith('The extension a/Missing could not be loaded', expect.any(Error));
  expect(log).toHaveBeenCalledWith('The extension a/Empty could not be loaded', expect.any(Error));
  log.mockRestore();
});

test('nothing is shown while one loads: the host paints at once, and the contribution joins when it arrives', async () => {
  let arrive!: (module: unknown) => void;
  provide({ 'a/Slow': new Promise((resolve) => (arrive = resolve)) });
  compose([{ slot: 'device-details.section', remote: 'a', module: './Slow' }]);
  const { container } = render(<Host />);

  expect(screen.getByText('Host before')).toBeInTheDocument();
  expect(container.querySelector('section')?.textContent).toBe('Host beforeHost after');

  await act(async () => arrive({ default: Section('Slow') }));
  expect(screen.getByText('Slow for TRK-7')).toBeInTheDocument();
});

test('without a composition or a loader (a remote running alone), a slot renders nothing', () => {
  render(<Host />);
  expect(document.body.textContent).toBe('Host beforeHost after');
});
