import type { Observation, ObservedElement } from '../../src/collector/observation.ts'

// Collector output written by hand, for tests of the parts that read it. Only what a test sets
// matters; the rest is filler that no reader after the collector looks at (rect, fingerprint).

/** A clickable button named after its ID; `fields` replace any of it. */
export function observedElement(id: string, fields: Partial<ObservedElement> = {}): ObservedElement {
  return {
    id,
    nodeId: `n-${id}`,
    frame: 0,
    role: 'button',
    name: id,
    tag: 'button',
    operations: ['click'],
    rect: { x: 0, y: 0, width: 10, height: 10 },
    fingerprint: id,
    ...fields,
  }
}

/** An observation of the page at `url` (its only frame) with no controls, blockers or scrolling; `fields` replace any of it. */
export function pageObservation(fields: Pick<Observation, 'url'> & Partial<Observation>): Observation {
  return {
    title: '',
    text: '',
    elements: [],
    omitted: 0,
    blockers: [],
    scroll: [],
    frames: [{ url: fields.url, crossOrigin: false }],
    popups: [],
    signature: '',
    ...fields,
  }
}
