// Its own file: the combobox's code is loaded once per module registry, and only the first
// render of a registry shows what stands in for it until then.
import { render, screen } from '@testing-library/react';
import { SearchSelect } from './search-select';

test('while its code loads, the dropdown is a disabled input marked busy, named as the combobox will be', async () => {
  render(<SearchSelect options={[]} value={null} onChange={() => {}} label="Hub" />);
  const loading = screen.getByRole('textbox', { name: 'Hub' });
  expect(loading).toBeDisabled();
  expect(loading).toHaveAttribute('aria-busy', 'true');
  expect(await screen.findByRole('combobox', { name: 'Hub' })).toBeEnabled();
  expect(screen.queryByRole('textbox', { name: 'Hub' })).not.toBeInTheDocument();
});
