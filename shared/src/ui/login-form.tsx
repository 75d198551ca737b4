import { useEffect, useId, useState, type FormEvent } from 'react';
import { http, httpStatus, loadRole, serverMessage } from '../http';
import { BusyButton } from './busy-button';
import { LAST_EVENT_ID_MARK } from '../live/last-event-id';
import { markSignIn } from '../live/start-mark';
import type { LoginResponse } from '../types';
import './login-form.css';

/** How long a login message stays on screen (docs/errors.md#login). */
export const LOGIN_MESSAGE_MS = 3000;

export const LOGIN_MESSAGES = {
  required: 'Username and password are required',
  invalid: 'Invalid username or password',
  forbidden: 'Access forbidden. You do not have permission to access this resource.',
  unexpected: 'An unexpected error occurred. Please try again later.',
  notFromBrowser: (role: string) => `${role}, are not allowed to login from web browser`,
} as const;

function failureMessage(error: unknown): string {
  const status = httpStatus(error);
  if (status === 401) return LOGIN_MESSAGES.invalid;
  if (status === 403) return serverMessage(error, ['res']) ?? LOGIN_MESSAGES.forbidden;
  return LOGIN_MESSAGES.unexpected;
}

export interface LoginFormProps {
  /** Called once the user is signed in and the session store holds their role. */
  onLoggedIn(): void;
}

/** The body of the Login page (docs/screens.md#login, docs/errors.md#login), used by the shell's /login and each remote run alone. */
export function LoginForm({ onLoggedIn }: LoginFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // `shownAt` restarts the 3 s timer even when the same message is shown twice in a row.
  const [message, setMessage] = useState<{ text: string; shownAt: number } | null>(null);
  const id = useId();

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), LOGIN_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const show = (text: string) => setMessage({ text, shownAt: Date.now() });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    if (!username.trim() || !password) {
      show(LOGIN_MESSAGES.required);
      return;
    }
    setSubmitting(true);
    try {
      const { data, headers } = await http.post<LoginResponse>('user/login/', { username: username.trim(), password });
      if (!data.is_webview) {
        show(LOGIN_MESSAGES.notFromBrowser(data.role));
        return;
      }
      // Where the session's event stream resumes: before the pages it opens first read.
      markSignIn(headers[LAST_EVENT_ID_MARK]);
      await loadRole();
      onLoggedIn();
    } catch (error) {
      show(failureMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="vx-login">
      <form className="vx-card vx-login-card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="vx-login-title">
          Veritas
        </h1>
        <div className="vx-field">
          <label className="vx-label" htmlFor={`${id}-username`}>
            Username
          </label>
          <input
            id={`${id}-username`}
            className="vx-input"
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <div className="vx-field">
          <label className="vx-label" htmlFor={`${id}-password`}>
            Password
          </label>
          <div className="vx-input-group">
            <input
              id={`${id}-password`}
              className="vx-input"
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button
              type="button"
              className="vx-btn"
              aria-pressed={showPassword}
              aria-controls={`${id}-password`}
              onClick={() => setShowPassword((shown) => !shown)}
            >
              {showPassword ? 'Hide' : 'Show'}
              <span className="vx-sr-only"> password</span>
            </button>
          </div>
        </div>
        <BusyButton type="submit" className="vx-btn vx-btn-primary vx-login-submit" busy={submitting}>
          Login
        </BusyButton>
        <p className="vx-error-text" role="alert">
          {message?.text}
        </p>
      </form>
    </div>
  );
}
