import { lazy, Suspense, type ReactNode } from 'react';

// Its code and styles load when a remote is started alone: a console never renders it, and
// everything @veritas/shared's entry holds is in the shell's first load (docs/architecture.md).
const StandaloneFrame = lazy(() => import('./standalone-frame'));

export interface StandaloneAppProps {
  /** Shown in the frame's header, e.g. 'Devices'. */
  title: string;
  /** The remote's page. */
  children: ReactNode;
}

/**
 * The frame a remote runs in when started alone (`pnpm --filter mfe-x dev`): signs in against
 * the API like the shell does, then shows the remote's page. Inside the shell it is not used.
 */
export function StandaloneApp(props: StandaloneAppProps) {
  return (
    <Suspense fallback={null}>
      <StandaloneFrame {...props} />
    </Suspense>
  );
}
