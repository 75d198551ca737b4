import { render, screen } from '@testing-library/react';
import CasesPage, { TITLE } from './cases-page';

test('the page is named by its heading', () => {
  render(<CasesPage />);
  expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
  expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();
});
