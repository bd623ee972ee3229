// How two texts are compared wherever the agent matches words (the checklist's items, a replayed
// target's name, the collector's repeated names): one definition, so they all agree.

/** Lower case, whitespace collapsed, trimmed: what "case- and space-insensitive" means everywhere here. */
export function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}
