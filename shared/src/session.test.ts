import { useSession } from './session';

afterEach(() => useSession.getState().clearSession());

test('setSession signs the user in with role and hub; clearSession signs out', () => {
  useSession.getState().setSession({ user: 'asha', role: 'incharge', hubCode: 'BLR01' });
  expect(useSession.getState()).toMatchObject({
    user: 'asha',
    role: 'incharge',
    hubCode: 'BLR01',
    isAuthenticated: true,
  });

  useSession.getState().clearSession();
  expect(useSession.getState()).toMatchObject({ user: null, role: null, hubCode: null, isAuthenticated: false });
});

test('a second copy of the module uses the same store (global Symbol.for key)', () => {
  let copy: typeof useSession | undefined;
  jest.isolateModules(() => {
    // A second evaluation of the module needs require inside isolateModules.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    copy = (require('./session') as typeof import('./session')).useSession;
  });
  expect(copy).toBe(useSession);
  copy!.getState().setSession({ user: 'ravi', role: 'admin', hubCode: null });
  expect(useSession.getState().user).toBe('ravi');
});
