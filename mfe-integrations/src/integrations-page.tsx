// Integrations (route /Integrations, docs/screens.md#integrations): the API keys an order system
// calls the Veritas API with, and the webhook endpoints the server sends its events to, for admins
// (the server permission manage-integrations). Its route, who may open it and its menu entry are
// in remote.json. Default export: the shell's page.
import { useId } from 'react';
import { ApiKeysSection } from './api-keys-section';
import { WebhooksSection } from './webhooks-section';
import './integrations.css';

/** The page's heading; remote.json's page title names it in the console's loading and error states. */
export const TITLE = 'Integrations';

export default function IntegrationsPage() {
  const headingId = useId();
  return (
    <section className="vx-page" aria-labelledby={headingId}>
      <h1 id={headingId} className="vx-page-title">
        {TITLE}
      </h1>
      <ApiKeysSection />
      <WebhooksSection />
    </section>
  );
}
