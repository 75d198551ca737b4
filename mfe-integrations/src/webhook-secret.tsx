// A webhook endpoint's signing secret, shown once when the endpoint is added or its secret rotated
// (docs/screens.md#integrations), by @veritas/shared's ShownOnceSecret, saying what is true of a
// webhook secret: the server keeps it to sign with (docs/webhooks.md#secrets), not a hash of it, and
// after a rotation the old one still signs for a while.
import type { WebhookSecretAnswer } from '@veritas/shared/domain';
import { ShownOnceSecret } from '@veritas/shared/access-tokens';
import { When } from './webhook-text';

export const SECRET_MESSAGES = {
  once: 'Copy this secret now: it is shown once.',
  use: 'The receiver checks the signature of each message with it; the console cannot show it again.',
} as const;

export function WebhookSecret({
  answer,
  rotated,
  onDone,
}: {
  answer: WebhookSecretAnswer;
  /** A rotation's new secret: the old one still signs until the endpoint's previousSecretExpiresAt. */
  rotated: boolean;
  onDone(): void;
}) {
  const { url, previousSecretExpiresAt } = answer.endpoint;
  return (
    <div className="ig-secret">
      <ShownOnceSecret
        secret={answer.secret}
        name={`the endpoint ${url}`}
        fieldLabel={`${rotated ? 'New secret' : 'Secret'} of ${url}`}
        notice={
          <>
            <p className="vx-token-secret__warning">
              <strong>{SECRET_MESSAGES.once}</strong> {SECRET_MESSAGES.use}
            </p>
            {rotated && previousSecretExpiresAt && (
              <p className="vx-token-secret__warning">
                The old secret signs too until <When iso={previousSecretExpiresAt} />: each message carries both
                signatures until then, so change the secret on the receiver before that.
              </p>
            )}
          </>
        }
        onDone={onDone}
      />
    </div>
  );
}
