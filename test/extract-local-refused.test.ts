import test from 'ava'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { createLocalLanguageModel } from '../src/local/index.ts'
import { domPage } from './helpers/dom-page.ts'

// Item 10 of issue 15: the offline text model refuses rules, so an instruction with it fails before any page work.

const HTML = '<main><h1 class="title">Trail Runner Pro</h1><b class="price">89.90</b></main>'

for (const [label, text] of [["'local'", 'local'], ['an instance of the local model', createLocalLanguageModel()]] as const) {
  test(`extract(instruction) with ${label} as text throws a UsageError before reading the page`, async (t) => {
    const page = domPage(HTML)
    const error = await t.throwsAsync(agent(page, { text }).extract('get the title'), { instanceOf: UsageError })
    t.regex(error!.message, /cannot write extraction rules/)
    t.is(page.evaluations, 0)
  })
}

test('rules with a selector for every field still run with the local text model', async (t) => {
  const page = domPage(HTML)
  const result = await agent(page, { text: 'local' }).extract('get the title', { title: { selector: 'h1.title' } })
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, { title: 'Trail Runner Pro' })
})
