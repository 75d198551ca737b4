import { useEffect, useState, type ReactNode } from 'react';
import type { StandaloneAppProps } from './standalone-app';
import { BrowserRouter } from '../router';
import { loadSession, logout, setLoginRedirect } from '../http';
import { roleLabel } from '../roles';
import { useSession } from '../session';
import { VeritasToaster } from '../toast';
import { LoginForm } from './login-form';
import './standalone-app.css';

/** StandaloneApp's frame (standalone-app.tsx), loaded when a remote is started alone. */
export default function StandaloneFrame({ title, children }: StandaloneAppProps) {
  const [checked, setChecked] = useState(false);
  const { isAuthenticated, user, role } = useSession();

  useEffect(() => {
    // An expired session clears the store, which already brings the login form back here.
    setLoginRedirect(() => {});
    void loadSession().finally(() => setChecked(true));
  }, []);

  let body: ReactNode;
  if (!checked) body = <p className="vx-muted vx-standalone-status">Checking sign-in…</p>;
  else if (!isAuthenticated) body = <LoginForm onLoggedIn={() => {}} />;
  else
    body = (
      <>
        <header className="vx-standalone-header">
          <strong>Veritas · {title}</strong>
          <span className="vx-standalone-user">
            {user} {role && <span className="vx-muted">({roleLabel(role)})</span>}
          </span>
          <button type="button" className="vx-btn" onClick={() => void logout()}>
            Sign out
          </button>
        </header>
        <main className="vx-standalone-main">
          <BrowserRouter>{children}</BrowserRouter>
        </main>
      </>
    );

  return (
    <>
      <VeritasToaster />
      {body}
    </>
  );
}
