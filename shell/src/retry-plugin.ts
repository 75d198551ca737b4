// Module Federation runtime plugin of the shell (webpack.config.cjs, runtimePlugins): a remote that
// cannot be loaded is loaded once more, on its own, before its page shows the error card
// (docs/architecture.md#loading-error-card-and-retry).
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { RetryPlugin } from '@module-federation/retry-plugin';

export default function retryPlugin(): ModuleFederationRuntimePlugin {
  return RetryPlugin({
    // The manifest: retryTimes is the number of retries, each after the plugin's fixed 1 s.
    fetch: { retryTimes: 1 },
    // The entry script: after a failed load the plugin loads it retryTimes + 1 more times, the
    // first at once, so 0 is one retry.
    script: { retryTimes: 0 },
  });
}
