import { Type } from '@sinclair/typebox';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { FormField, useFieldFaults } from './field-faults';

const Payload = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 8,
    errorMessages: { missing: 'Name the thing.', maxLength: 'At most 8.' },
  }),
  code: Type.String({ minLength: 1, errorMessages: { missing: 'Give a code.' } }),
});
const FIELDS = ['name', 'code'] as const;

function Form() {
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const faults = useFieldFaults(FIELDS);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        faults.check(Payload, { name: name.trim(), code: code.trim() });
      }}
    >
      <FormField
        faults={faults}
        field="name"
        label="Name"
        hint="What the list calls it."
        input={(wiring) => <input {...wiring} value={name} onChange={(event) => setName(event.target.value)} />}
      />
      <FormField
        faults={faults}
        field="code"
        label="Code"
        input={(wiring) => <input {...wiring} value={code} onChange={(event) => setCode(event.target.value)} />}
      />
      <button type="submit">Save</button>
    </form>
  );
}

test('a FormField names its input by its label and describes it by its hint', () => {
  render(<Form />);
  const name = screen.getByRole('textbox', { name: 'Name' });
  expect(name).toHaveAccessibleDescription('What the list calls it.');
  expect(name).not.toHaveAttribute('aria-invalid');
  expect(screen.getByRole('textbox', { name: 'Code' })).not.toHaveAttribute('aria-describedby');
});

test("a FormField's fault shows under it, marks its input invalid and describes it; the cursor goes to the first", () => {
  render(<Form />);
  fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'far too long' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  const name = screen.getByRole('textbox', { name: 'Name' });
  const code = screen.getByRole('textbox', { name: 'Code' });
  expect(name).toHaveAttribute('aria-invalid', 'true');
  expect(name).toHaveAccessibleDescription('What the list calls it. At most 8.');
  expect(code).toHaveAttribute('aria-invalid', 'true');
  expect(code).toHaveAccessibleDescription('Give a code.');
  expect(name).toHaveFocus();
});
