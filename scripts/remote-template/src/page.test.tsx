import { render, screen } from '@testing-library/react';
import __Pascal__Page, { TITLE } from './__name__-page';

test('the page is named by its heading', () => {
  render(<__Pascal__Page />);
  expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
  expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();
});
