import test from 'ava'
import { callInDom, makeDom } from './helpers/jsdom.ts'
import { layoutDom, observeDom } from './fixtures/collector/jsdom-layout.ts'
import { collapse, markupText, shorten } from '../src/page/text.ts'
import { PAGE_SCRIPT_VERSION } from '../src/page/bundle.generated.ts'

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

test('the page script installs itself once per document, stamped with the bundle version', (t) => {
  const dom = makeDom('<p>x</p>')
  const key = Symbol.for('puppeteer-agent.page')
  t.is((dom.window as unknown as Record<symbol, unknown>)[key], undefined)
  callInDom(dom, 'planSubmit', dom.window.document.body)
  const installed = (dom.window as unknown as Record<symbol, { version: string }>)[key]
  t.is(installed?.version, PAGE_SCRIPT_VERSION)
})
