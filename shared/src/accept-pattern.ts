// A first call's `accept` pattern (FirstCall of api/composition.ts) as the shell matches a URL's
// value with it and the registry checks it at publish. A file of its own, without TypeBox: the shell
// compiles it into the page load's first calls (first-calls.ts).

/** `pattern` as it is matched against a whole value; null when it is no regular expression. */
export function acceptPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
}
