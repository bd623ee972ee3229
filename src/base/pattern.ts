// Text put into a regular expression as itself: a phrase, a label or a secret is matched literally.

/** `text` with every character a pattern gives a meaning to escaped. */
export function escapePattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}
