// The sections other remotes add to Device Details (slot `device-details.section`): after the
// timeline, with the record; one that throws or is slow leaves the timeline as it is.
import { provideModuleLoader, setComposition, useComposition, type ComposedExtension } from '@veritas/shared';
import { makeRecord } from '@veritas/shared/testing';
import { act, render, screen } from '@testing-library/react';
import { DeviceDetails } from './device-details';

const record = makeRecord({ id: 4, tracking_id: { tracking_id: 'TRK-4' } });

/** The console's composition with `extensions` from the remote `returns`, whose modules load as `modules` say. */
function compose(entry: string, extensions: ComposedExtension[], modules: Record<string, Promise<unknown>>): void {
  provideModuleLoader((_remote, module) => modules[module] ?? Promise.reject(new Error(`${module} not exposed`)));
  act(() =>
    setComposition({
      viewer: 'asha',
      remotes: { returns: { entry } },
      pages: [],
      menus: [],
      extensions,
      unavailable: [],
      home: null,
      features: [],
    }),
  );
}

const section = (module: string): ComposedExtension => ({ slot: 'device-details.section', remote: 'returns', module });

function Notes({ record: shown }: { record: { tracking_id: { tracking_id: string } } }) {
  return <p>Returns notes for {shown.tracking_id.tracking_id}</p>;
}

function Broken(): never {
  throw new Error('broken on purpose');
}

afterEach(() => useComposition.setState({ composition: null, loadModule: null }));

test("other remotes' sections follow the timeline, with the record; one that throws leaves Device Details working", async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  compose('http://127.0.0.1/returns/1/mf-manifest.json', [section('./Broken'), section('./Notes')], {
    './Broken': Promise.resolve({ default: Broken }),
    './Notes': Promise.resolve({ default: Notes }),
  });
  const { container } = render(<DeviceDetails record={record} />);

  const notes = await screen.findByText('Returns notes for TRK-4');
  expect(screen.getAllByTestId('timeline-step')).toHaveLength(3);
  const timeline = container.querySelector('.dl-timeline')!;
  expect(timeline.compareDocumentPosition(notes) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  log.mockRestore();
});

test('a section still loading shows nothing: the timeline is there at once', async () => {
  let arrive!: (module: unknown) => void;
  compose('http://127.0.0.1/returns/2/mf-manifest.json', [section('./Notes')], {
    './Notes': new Promise((resolve) => (arrive = resolve)),
  });
  render(<DeviceDetails record={record} />);

  expect(screen.getAllByTestId('timeline-step')).toHaveLength(3);
  expect(screen.queryByText(/Returns notes/)).not.toBeInTheDocument();
  await act(async () => arrive({ default: Notes }));
  expect(screen.getByText('Returns notes for TRK-4')).toBeInTheDocument();
});
