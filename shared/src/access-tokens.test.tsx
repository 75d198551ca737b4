import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ExpiresOnField, NewTokenSecret } from './access-tokens';
import { latestTokenExpiry, type CreatedToken } from './api/registry';
import { useFieldFaults } from './field-faults';
import { setLocalZone } from './testing/time-zone';

function Form({ fault }: { fault?: string }) {
  const faults = useFieldFaults(['expiresOn'] as const);
  const [day, setDay] = useState('2026-06-08');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        faults.passes(new Map(fault ? [['expiresOn', fault]] : []));
      }}
    >
      <ExpiresOnField
        faults={faults}
        label="Expires on"
        hint="Through the end of that day in UTC."
        value={day}
        onChange={setDay}
      />
      <button type="submit">Create</button>
    </form>
  );
}

describe('ExpiresOnField', () => {
  test('offers no day before today in UTC nor after five years on, as the server takes, in any browser zone', () => {
    // 22:00 UTC is already 11 March in Kolkata: the earliest day stays the UTC one.
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-03-10T22:00:00Z'));
    const restoreZone = setLocalZone('Asia/Kolkata');
    try {
      render(<Form />);
      const field = screen.getByLabelText('Expires on');
      expect(field).toHaveAttribute('type', 'date');
      expect(field).toHaveAttribute('min', '2026-03-10');
      // Nor one past the latest: five years on.
      expect(field).toHaveAttribute('max', '2031-03-10');
      expect(field).toHaveAccessibleDescription('Through the end of that day in UTC.');
    } finally {
      restoreZone();
      now.mockRestore();
    }
  });

  test('hands the day chosen to its form, and shows its fault under it with the cursor in it', async () => {
    const user = userEvent.setup();
    render(<Form fault="The expiry must be today or later." />);
    const field = screen.getByLabelText('Expires on');
    await user.clear(field);
    await user.type(field, '2026-07-01');
    expect(field).toHaveValue('2026-07-01');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/The expiry must be today or later\.$/);
    expect(field).toHaveFocus();
  });
});

test('latestTokenExpiry: a token works at most five years from today in UTC, a leap day to 1 March', () => {
  expect(latestTokenExpiry(Date.parse('2026-12-01T23:30:00Z'))).toBe('2031-12-01');
  expect(latestTokenExpiry(Date.parse('2028-02-29T12:00:00Z'))).toBe('2033-03-01');
});

describe('NewTokenSecret', () => {
  const created: CreatedToken = {
    token: {
      id: 7,
      label: 'returns portal',
      scope: 'records:read',
      expiresAt: '2099-01-01T00:00:00Z',
      createdBy: 'admin_demo',
      createdAt: '2026-01-01T00:00:00Z',
      revokedAt: null,
      lastUsedAt: null,
    },
    secret: 'vx_secret_value',
  };

  function Section() {
    const [shown, setShown] = useState(true);
    return (
      <section aria-label="Keys">
        <form>
          <label>
            Label <input />
          </label>
        </form>
        {shown && <NewTokenSecret created={created} noun="key" onDone={() => setShown(false)} />}
      </section>
    );
  }

  test("Done takes the secret away and hands the keyboard to the first field of its section's form", async () => {
    render(<Section />);
    expect(screen.getByLabelText('Secret of returns portal')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('vx_secret_value')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Label')).toHaveFocus();
  });
});
