// Run by `npm test` before anything else. The test tools (ava 7, jsdom 31, TypeScript run through
// Node's type stripping) need Node 24.15 or later; an older Node fails once per test file with
// messages such as "bad option: --experimental-strip-types". Plain CommonJS, so any Node runs it.
'use strict'

const REQUIRED = [24, 15]
const [major, minor] = process.versions.node.split('.').map(Number)

if (major < REQUIRED[0] || (major === REQUIRED[0] && minor < REQUIRED[1])) {
  console.error(
    `npm test needs Node >= ${REQUIRED.join('.')} for its test tools, and this is Node ${process.versions.node}: ` +
      'run .ci/run (it installs Node 24 from npm when the machine has an older one), or switch to Node 24. ' +
      'The library itself runs on Node >= 22.12.',
  )
  process.exit(1)
}
