// A `nearby` text that most controls of an observation share (the page's one heading above a grid of
// products) tells none of them apart and only lengthens the request: it is dropped here, where the
// whole observation (every frame) is seen at once. The page script keeps it in the fingerprint, so
// the freshness check is unchanged.

/** Fewer controls than this may share their text: a small form under its own heading keeps it. */
const MIN_SHARED = 6

/** What is read of a placed frame: its elements' nearby texts, and which of them the page lets be seen. */
interface NearbyOfFrame {
  report: { elements: { nearby?: string }[] }
  seen: { elements: boolean[] }
}

/** Removes, in place, each `nearby` that more than half of the controls the observation offers carry. */
export function dropSharedNearby(frames: NearbyOfFrame[]): void {
  const counts = new Map<string, number>()
  let total = 0
  for (const { report, seen } of frames) {
    report.elements.forEach((element, index) => {
      if (!seen.elements[index]) return
      total++
      if (element.nearby) counts.set(element.nearby, (counts.get(element.nearby) ?? 0) + 1)
    })
  }
  for (const { report } of frames) {
    for (const element of report.elements) {
      const count = element.nearby ? counts.get(element.nearby)! : 0
      if (count >= MIN_SHARED && count * 2 > total) delete element.nearby
    }
  }
}
