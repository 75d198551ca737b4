import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PageModule = { default: ComponentType };

/** A thenable that answers at once: React.lazy then takes the module without suspending. */
export function answerAtOnce<T>(value: T): Promise<T> {
  return { then: (resolve: (value: T) => void) => resolve(value) } as unknown as Promise<T>;
}

/**
 * A page's code: loading, then loaded. React reveals a lazy component no sooner than 300 ms after
 * its Suspense fallback showed, however early the code came in; so LoadedPage waits for `load`
 * with a loading state of its own and renders `component` once `module` is in, which React takes
 * at once (docs/architecture.md#first-rows).
 */
export class PageCode {
  module: PageModule | undefined;
  readonly component: LazyExoticComponent<ComponentType>;

  constructor(readonly load: Promise<PageModule>) {
    // A failure is seen by whoever waits on `load`.
    load.then(
      (module) => (this.module = module),
      () => {},
    );
    this.component = lazy(() => (this.module ? answerAtOnce(this.module) : this.load));
  }
}
