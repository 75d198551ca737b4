import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { Role, ServerFeature, Session } from './types';

export interface SessionState extends Session {
  /** `role` is null when the role could not be fetched: the user is signed in but sees only what every role sees. */
  setSession(session: {
    user: string | null;
    role: Role | null;
    hubCode: string | null;
    features?: readonly ServerFeature[];
  }): void;
  clearSession(): void;
}

const signedOut: Session = { user: null, role: null, hubCode: null, features: [], isAuthenticated: false };

function createSessionStore() {
  return create<SessionState>()((set) => ({
    ...signedOut,
    setSession: ({ user, role, hubCode, features = [] }) =>
      set({ user, role, hubCode, features, isAuthenticated: true }),
    clearSession: () => set(signedOut),
  }));
}

// @veritas/shared is a Module Federation singleton; should a second copy of this module
// ever load (a remote built against another version), the global key still gives every
// copy the same store, so shell and remotes never disagree about who is signed in.
const storeKey = Symbol.for('veritas.session');
const registry = globalThis as typeof globalThis & { [storeKey]?: UseBoundStore<StoreApi<SessionState>> };

/** The signed-in user: `{user, role, hubCode, isAuthenticated}` plus `setSession` and `clearSession`. */
export const useSession: UseBoundStore<StoreApi<SessionState>> = (registry[storeKey] ??= createSessionStore());
