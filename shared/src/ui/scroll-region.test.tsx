import { act, render, screen } from '@testing-library/react';
import { ScrollRegion } from './scroll-region';

// jsdom has no layout: each test says how wide the box and its content are, and resizes by hand.
let content = { width: 300, height: 100 };
const BOX = { width: 320, height: 200 };
let resize: () => void = () => {};

beforeEach(() => {
  content = { width: 300, height: 100 };
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => BOX.width);
  jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => BOX.height);
  jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => Math.max(content.width, BOX.width));
  jest
    .spyOn(HTMLElement.prototype, 'scrollHeight', 'get')
    .mockImplementation(() => Math.max(content.height, BOX.height));
  globalThis.ResizeObserver = class {
    constructor(callback: () => void) {
      resize = callback;
    }
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
});

const box = () => screen.getByTestId('box');

test('while its content fits, the box is no region and no tab stop', () => {
  render(
    <ScrollRegion label="Top Five Rejection Hubs">
      <table />
    </ScrollRegion>,
  );
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
  expect(document.querySelector('[tabindex]')).toBeNull();
});

test('content wider than the box: a focusable region named by its label', () => {
  content = { width: 480, height: 100 };
  render(
    <ScrollRegion label="Top Five Rejection Hubs" className="vx-table-wrap">
      <p>wide</p>
    </ScrollRegion>,
  );
  const region = screen.getByRole('region', { name: 'Top Five Rejection Hubs' });
  expect(region).toHaveAttribute('tabindex', '0');
  expect(region).toHaveClass('vx-table-wrap');
});

test('content taller than the box scrolls too', () => {
  content = { width: 300, height: 900 };
  render(<ScrollRegion label="Errors">long list</ScrollRegion>);
  expect(screen.getByRole('region', { name: 'Errors' })).toHaveAttribute('tabindex', '0');
});

test('a resize measures again: the tab stop comes when the content overflows and goes when it fits', () => {
  render(
    <div data-testid="box">
      <ScrollRegion label="Top Five Rejecting Operators">rows</ScrollRegion>
    </div>,
  );
  expect(box().firstElementChild).not.toHaveAttribute('tabindex');
  content = { width: 500, height: 100 };
  act(() => resize());
  expect(screen.getByRole('region', { name: 'Top Five Rejecting Operators' })).toHaveAttribute('tabindex', '0');
  content = { width: 200, height: 100 };
  act(() => resize());
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
  expect(box().firstElementChild).not.toHaveAttribute('tabindex');
});
