import { MemoryRouter, useLocation } from '@veritas/shared';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useDeviceFilters } from './use-device-filters';

describe('useDeviceFilters', () => {
  function withRouter(url: string) {
    const location = { search: '' };
    function Spy() {
      location.search = useLocation().search;
      return null;
    }
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={[url]}>
        {children}
        <Spy />
      </MemoryRouter>
    );
    return { wrapper, location };
  }

  test('reads the URL query and writes each change to it, leaving out empty filters and other parameters alone', async () => {
    const { wrapper, location } = withRouter('/ListDevices?q=abc&status=pending&tab=2');
    const { result } = renderHook(() => useDeviceFilters(), { wrapper });
    expect(result.current[0]).toEqual({ q: 'abc', hub: null, status: 'pending', result: null });
    act(() => result.current[1]({ q: 'abcd' }));
    expect(result.current[0].q).toBe('abcd');
    await waitFor(() => expect(new URLSearchParams(location.search).get('q')).toBe('abcd'));
    act(() => result.current[1]({ hub: 'BLR01', status: null }));
    await waitFor(() => expect(location.search).toBe('?tab=2&q=abcd&hub=BLR01'));
    act(() => result.current[1]({ q: '' }));
    await waitFor(() => expect(location.search).toBe('?tab=2&hub=BLR01'));
  });
});
