import test from 'ava'
import { readdirSync, readFileSync } from 'node:fs'

// A form's named fields shadow its methods: `<input name="getAttribute">` makes `form.getAttribute`
// that input, and any page code calling it on a form throws, which ended every observation. Page code
// calls these methods only through src/page/dom-safe.ts, which captured the prototypes' own.

const PAGE = new URL('../src/page/', import.meta.url)
/** The helpers themselves, and the bundle generated from all page code (helpers included). */
const EXEMPT = new Set(['dom-safe.ts', 'bundle.generated.ts'])
const DIRECT_CALL = /\.\s*(getAttribute|hasAttribute|getBoundingClientRect)\s*\(/

/** `file:line: text` for each line of `source` that calls one of the methods directly (comments aside). */
function directCalls(file: string, source: string): string[] {
  const found: string[] = []
  source.split('\n').forEach((line, index) => {
    const code = line.trim()
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return
    if (DIRECT_CALL.test(code.replace(/\/\/.*$/, ''))) found.push(`src/page/${file}:${index + 1}: ${code}`)
  })
  return found
}

test('page code calls getAttribute, hasAttribute and getBoundingClientRect only through the helpers of dom-safe.ts', (t) => {
  const files = readdirSync(PAGE).filter((file) => file.endsWith('.ts') && !EXEMPT.has(file))
  t.true(files.length > 40, 'the page modules were found')
  const calls = files.flatMap((file) => directCalls(file, readFileSync(new URL(file, PAGE), 'utf8')))
  t.deepEqual(calls, [], `call these through src/page/dom-safe.ts instead:\n${calls.join('\n')}`)
})

test('the check names a direct call with its file and line, and passes the helpers and comments', (t) => {
  const source = [
    '// el.getAttribute(name) in a comment',
    "const role = attributeOf(el, 'role')",
    "const id = el.getAttribute('id')",
    '  if (el?.hasAttribute("inert")) return',
    'const box = parent.getBoundingClientRect ()',
  ].join('\n')
  t.deepEqual(directCalls('x.ts', source), [
    "src/page/x.ts:3: const id = el.getAttribute('id')",
    'src/page/x.ts:4: if (el?.hasAttribute("inert")) return',
    'src/page/x.ts:5: const box = parent.getBoundingClientRect ()',
  ])
})
