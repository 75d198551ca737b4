// A button whose call is under way (docs/screens.md#buttons): marked unavailable with
// `aria-disabled` and taking no press meanwhile. Not `disabled`: Chromium drops the focus of a
// focused button that becomes disabled to the page, so a keyboard user would lose their place and
// a refusal shown next would be read from nowhere. A button unusable for another reason stays
// `disabled`. A form's submit handler still checks its own call: Enter in a field submits the
// form without pressing the button.
import type { ButtonHTMLAttributes, Ref } from 'react';

export type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-disabled'> & {
  /** Its call is under way: no press reaches `onClick` nor submits its form. */
  busy: boolean;
  ref?: Ref<HTMLButtonElement>;
};

export function BusyButton({ busy, onClick, type = 'button', ...props }: BusyButtonProps) {
  return (
    <button
      {...props}
      type={type}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (!busy) onClick?.(event);
        // A press while busy submits no form either.
        else event.preventDefault();
      }}
    />
  );
}
