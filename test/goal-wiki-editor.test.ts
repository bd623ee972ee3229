import test from 'ava'
import agent from '../src/index.ts'
import { LIMITS } from '../src/collector/limits.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { readingTextModel, scriptedModel } from './helpers/goal-scripted-model.ts'

// A wiki page's source edited in its editor, in real Chrome (fixture sites/wiki-editor): one line
// changes and every other byte of the page (its line breaks, a tab, runs of spaces, lines ending in
// spaces, the last line break) is saved as it was. The text model rewrites the field from the text
// request alone, as a model would.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

test('goal: change the status line of a wiki page in its source editor; the saved page differs from the original in that line alone', async (t) => {
  const page = await chrome.open(t, servers.site.url('/sites/wiki-editor/'))
  const original = await page.$eval('#source', (el) => (el as HTMLTextAreaElement).value)
  t.true(original.length > LIMITS.valueLimit && original.length < LIMITS.keptValueLimit, `${original.length} characters`)
  t.true(original.includes('\t') && original.includes('  \n') && original.endsWith('\n'))

  const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Page source' }, { operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }])
  const text = readingTextModel((request) => {
    if (request.field.value_omitted) throw new Error('the text request left part of the field out')
    return request.field.value!.replace(/^Status: .*$/m, 'Status: approved')
  })
  const result = await agent(page).goal('Change the status line to say "Status: approved", keeping the rest of the page as it is, and save.', {
    decisions: scripted.model,
    text: text.model,
    checklist: false,
  })
  t.is(result.error, undefined)
  t.is(result.status, 'success')

  // The decision request shows the start of the field as it is, and says how much it left out.
  t.like(scripted.seen[0]!.elements.find((element) => element.name === 'Page source'), {
    value: original.slice(0, LIMITS.valueLimit),
    value_omitted: { before: 0, after: original.length - LIMITS.valueLimit },
  })
  // The text request carries the whole field, and the saved page is the original with one line changed.
  t.is(text.requests[0]!.field.value, original)
  const saved = await page.$eval('#saved', (el) => el.textContent)
  t.is(saved, original.replace('Status: draft\n', 'Status: approved\n'))
  t.not(saved, original)
})
