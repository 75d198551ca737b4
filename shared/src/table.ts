// Entry point @veritas/shared/table: the console's one table component, the control that reads a
// paged list's next page and the rows whose action is under way (docs/screens.md#tables).
// Not part of the main entry, which the shell loads before its login form: the pages with tables
// import it, and Module Federation shares it as a singleton (webpack.factory.cjs).
export * from './ui/data-table';
export * from './ui/more-pages';
export * from './ui/ids-under-way';
