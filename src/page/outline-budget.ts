// Which lines of an outline fit its bound. Lines are kept by what they are worth, not by where they
// come: first those that say what a product is (its title, price, stock, codes, buy button), in its
// block and then around it, then the rest of the main block, then what is around it, nearest first. A kept line keeps the lines of
// the elements that hold it, so every line still shows where it sits; a run of lines left out
// becomes one "…" line at their depth.

export interface OutlineLine {
  text: string
  /** The element's depth as the line shows it. */
  depth: number
  /** Index of the line of the element that holds this one, or -1. */
  parent: number
  /** Lower is kept first; lines of a tier are kept in order. */
  tier: number
}

/** The outline's lines within `maxChars` (counting a newline after each), in their order, and how many were left out. */
export function fitLines(lines: readonly OutlineLine[], maxChars: number): { lines: string[]; leftOut: number } {
  const total = lines.reduce((sum, line) => sum + line.text.length + 1, 0)
  if (total <= maxChars) return { lines: lines.map((line) => line.text), leftOut: 0 }
  const order = lines.map((_, index) => index).sort((a, b) => lines[a]!.tier - lines[b]!.tier || a - b)
  const kept = new Uint8Array(lines.length)
  let size = 0
  // Each left-out run costs a "…" line; counted as if every kept line opened one, which is the most it can be.
  const gapCost = (line: OutlineLine) => String(line.depth).length + 3
  for (const index of order) {
    if (kept[index]) continue
    const chain: number[] = []
    for (let at = index; at !== -1 && !kept[at]; at = lines[at]!.parent) chain.push(at)
    const cost = chain.reduce((sum, at) => sum + lines[at]!.text.length + 1 + gapCost(lines[at]!), 0)
    if (size + cost > maxChars) continue
    for (const at of chain) kept[at] = 1
    size += cost
  }
  const out: string[] = []
  let skipped = false
  let leftOut = 0
  lines.forEach((line, index) => {
    if (kept[index]) {
      out.push(line.text)
      skipped = false
      return
    }
    leftOut += 1
    if (!skipped) out.push(`${line.depth} …`)
    skipped = true
  })
  return { lines: out, leftOut }
}
