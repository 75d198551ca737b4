import './status.css';

/** Shown until the signed-in layout knows who is signed in. */
export function CheckingSignIn() {
  return (
    <p className="shell-status" role="status">
      Checking sign-in…
    </p>
  );
}
