import test from 'ava'
import { callInDom, makeDom } from './helpers/jsdom.ts'
import { layoutDom, observeDom } from './fixtures/collector/jsdom-layout.ts'
import { collapse, markupText, shorten } from '../src/page/text.ts'
import { PAGE_SCRIPTS } from '../src/page/bundle.generated.ts'

// The one definition of page text (src/page/text.ts), and the page script installing itself once per document.

const MIXED = `<p>Pick <b>one</b>:</p><script>var hidden = 1</script><style>p{}</style>
  <select><option>Red</option></select><textarea>draft</textarea><template>later</template><p>Done</p>`

test('collapse and clip: whitespace runs become one space; clipped text ends in … within the limit', (t) => {
  t.is(collapse('  a \n\t b  '), 'a b')
  t.is(shorten('abcdef', 4), 'abc…')
  t.is(shorten('abcd', 4), 'abcd')
})

test('markup text skips scripts, styles, templates and form-control contents, and separates blocks', (t) => {
  const dom = makeDom(MIXED)
  t.is(markupText(dom.window.document.body), 'Pick one: Done')
})

test('the rules engine and the collector read the same text from the same markup', (t) => {
  const dom = layoutDom(MIXED)
  const { report } = observeDom(dom)
  const extracted = callInDom(dom, 'rulesEngine', { text: { selector: 'body', attr: 'text' } })
  t.deepEqual(extracted, { ok: true, data: { text: 'Pick one: Done' } })
  t.is(report.text, 'Pick one: Done')
})

test('each page script installs itself once per document when one of its functions is first called, stamped with its version', (t) => {
  const dom = makeDom('<p>x</p>')
  const installed = (script: { key: string }) => (dom.window as unknown as Record<symbol, { version: string } | undefined>)[Symbol.for(script.key)]
  t.is(installed(PAGE_SCRIPTS.goal), undefined)
  callInDom(dom, 'planSubmit', dom.window.document.body)
  t.is(installed(PAGE_SCRIPTS.goal)?.version, PAGE_SCRIPTS.goal.version)
  // A goal's documents never parse the extraction's script.
  t.is(installed(PAGE_SCRIPTS.extract), undefined)
  callInDom(dom, 'rulesEngine', { text: { selector: 'p', attr: 'text' } })
  t.is(installed(PAGE_SCRIPTS.extract)?.version, PAGE_SCRIPTS.extract.version)
})

test('the goal script holds none of the extraction, and the two scripts share no function name', (t) => {
  t.deepEqual(PAGE_SCRIPTS.extract.functions, ['outline', 'rulesEngine'])
  t.false(PAGE_SCRIPTS.goal.functions.some((name) => PAGE_SCRIPTS.extract.functions.includes(name)))
  t.true(PAGE_SCRIPTS.goal.functions.includes('observe'))
  t.notRegex(PAGE_SCRIPTS.goal.source, /InStock|availability/)
})
