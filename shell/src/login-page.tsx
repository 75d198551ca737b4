import { LoginForm, loadSession } from '@veritas/shared';
import { useEffect } from 'react';
import { useNavigate } from '@veritas/shared';

/** /login: the login form; a user who is already signed in goes on to /. */
export function LoginPage() {
  const navigate = useNavigate();
  const enter = () => navigate('/', { replace: true });

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
    <main>
      <LoginForm onLoggedIn={enter} />
    </main>
  );
}
