// Values a page script builds on first use, not when it is installed: the script is installed in
// every document an agent touches, and large patterns (stock phrases in twenty languages, code
// labels) took longer to build than the rest of the script to install.

/** `build()`, run once, on the first call. */
export function once<T>(build: () => T): () => T {
  let built = false
  let value: T
  return () => {
    if (!built) {
      value = build()
      built = true
    }
    return value
  }
}
