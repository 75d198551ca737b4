// The Create User form's password field, with the button that shows or hides what was typed.
import { PASSWORD_RULE } from '@veritas/shared/domain';
import { TextField } from './text-field';

interface PasswordFieldProps {
  value: string;
  onChange: (password: string) => void;
  /** Held by the form, which hides the password again once a user is created. */
  shown: boolean;
  onToggle: () => void;
}

export function PasswordField({ value, onChange, shown, onToggle }: PasswordFieldProps) {
  return (
    <TextField
      label="Password"
      name="password"
      type={shown ? 'text' : 'password'}
      autoComplete="new-password"
      hint={PASSWORD_RULE}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      addon={(inputId) => (
        <button
          type="button"
          className="vx-btn"
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-controls={inputId}
          onClick={onToggle}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      )}
    />
  );
}
