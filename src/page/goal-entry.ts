// The goal's page script (scripts/bundle-page.mjs): every function a goal calls in the page, by
// name: observing, checking a target before input, and the inputs' own page work. Each export is
// one callable name; extraction has its own script (extract-entry.ts), so a goal's documents
// never parse the outline and the rules engine.

export { check } from './check-target.ts'
export { framesShown, hit } from './hit-test.ts'
export { dragGeometry } from './drag-geometry.ts'
export { documentParsed, editFocusedValue, fieldValue, findListOption, planSubmit, replaceFocusedValue, requestSubmit, scrollByPage, waitForDomQuiet } from './input.ts'
export { observe } from './observe-frame.ts'
export { takeSentNodes } from './sent-nodes.ts'
export { watchInput } from './watch-input.ts'
