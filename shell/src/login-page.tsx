import { focusWasDropped, LoginForm, loadSession } from '@veritas/shared';
import { useEffect, useRef } from 'react';
import { useNavigate } from '@veritas/shared';
import { usePageTitle } from './page-arrival';

/** /login: the login form; a user who is already signed in goes on to /. */
export function LoginPage() {
  const navigate = useNavigate();
  const enter = () => navigate('/', { replace: true });
  const main = useRef<HTMLElement>(null);
  usePageTitle('Login');
  // The keyboard starts at the username: on a page load, and signed out from the top bar, whose
  // Logout button is gone (a focus the user moved elsewhere meanwhile stays).
  useEffect(() => {
    if (focusWasDropped()) main.current?.querySelector('input')?.focus();
  }, []);

  useEffect(() => {
    let active = true;
    void loadSession().then((signedIn) => {
      if (active && signedIn) navigate('/', { replace: true });
    });
    return () => {
      active = false;
    };
  }, [navigate]);

  // The page's main landmark, as the layout's pages have theirs (a remote run alone puts the form in its own).
  return (
    <main ref={main}>
      <LoginForm onLoggedIn={enter} />
    </main>
  );
}
