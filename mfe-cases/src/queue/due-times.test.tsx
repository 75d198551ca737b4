// Due times (docs/cases.md#due-times): read, changed and saved by a super_admin; refused input is
// said before anything is sent.
import { VeritasToaster } from '@veritas/shared';
import { mockApi, withQueryClient, type MockApi } from '@veritas/shared/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DUE_MESSAGES, DueTimes } from './due-times';

let api: MockApi;
const HOURS = { E003: 48, E004: 48, E005: 24, E006: 72, E007: 72, E008: 24, E009: 72, E010: 72 };

function renderDueTimes() {
  render(
    <>
      <DueTimes />
      <VeritasToaster />
    </>,
    { wrapper: withQueryClient() },
  );
}

beforeEach(() => {
  api = mockApi()
    .on('GET api/cases/due_times/', [200, { due_hours: HOURS }])
    .on('POST api/cases/due_times/', (request) => [
      200,
      { due_hours: { ...HOURS, ...(JSON.parse(String(request.config.data)) as { due_hours: object }).due_hours } },
    ]);
});

test('each reason shows its hours, labelled with its code and title', async () => {
  renderDueTimes();
  await userEvent.click(screen.getByText('Due times'));
  expect(await screen.findByRole('textbox', { name: /E005 · Fraudulent device detected/ })).toHaveValue('24');
  expect(screen.getByRole('textbox', { name: /E007/ })).toHaveValue('72');
});

test('saving sends only the reasons changed, as whole hours', async () => {
  renderDueTimes();
  await userEvent.click(screen.getByText('Due times'));
  const fraud = await screen.findByRole('textbox', { name: /E005/ });
  await waitFor(() => expect(fraud).toHaveValue('24'));
  await userEvent.clear(fraud);
  await userEvent.type(fraud, '12');
  await userEvent.click(screen.getByRole('button', { name: 'Save due times' }));
  await screen.findByText(DUE_MESSAGES.saved);
  const sent = api.requestsTo('POST api/cases/due_times/').map((r) => JSON.parse(String(r.config.data)));
  expect(sent).toEqual([{ due_hours: { E005: 12 } }]);
});

test('hours that are not a whole number from 1 to 8760 are refused before sending', async () => {
  renderDueTimes();
  await userEvent.click(screen.getByText('Due times'));
  const fraud = await screen.findByRole('textbox', { name: /E005/ });
  await waitFor(() => expect(fraud).toHaveValue('24'));
  await userEvent.clear(fraud);
  await userEvent.type(fraud, '0');
  await userEvent.click(screen.getByRole('button', { name: 'Save due times' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(DUE_MESSAGES.invalid);
  expect(fraud).toHaveAttribute('aria-invalid', 'true');
  expect(api.requestsTo('POST api/cases/due_times/')).toEqual([]);
});
