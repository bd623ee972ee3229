import test, { type ExecutionContext } from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { describeElement } from '../src/collector/describe-element.ts'
import { LIMITS } from '../src/collector/limits.ts'
import { observe } from '../src/collector/observe.ts'
import { textPrompt } from '../src/decision/write-text.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { readingTextModel, scriptedModel } from './helpers/goal-scripted-model.ts'

// A field's value reaches the models as it is, in real Chrome: its edges, runs of spaces, tabs and
// line breaks in the decision request and in the text request, and a text written from them is typed
// byte for byte. A long value is shown around the caret, saying how much was left out.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

type Omitted = { before: number; after: number }

async function copyPage(t: ExecutionContext, source: string): Promise<Page> {
  const page = await chrome.open(t, servers.site.url('/sites/values/copy.html'))
  await page.$eval('#source', (el, value) => ((el as HTMLTextAreaElement).value = value), source)
  return page
}

/** Copies Source into Target through a goal whose text model copies what the text request shows of Source. */
async function copyRun(t: ExecutionContext, source: string) {
  const page = await copyPage(t, source)
  const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Target' }, { operation: 'DONE' }])
  const text = readingTextModel((request) => request.other_fields.find((field) => field.name === 'Source')!.value)
  const result = await agent(page).goal('Copy the text of Source into Target, exactly.', { decisions: scripted.model, text: text.model, checklist: false })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  const shown = scripted.seen[0]!.elements.find((element) => element.name === 'Source')!
  const told = text.requests[0]!.other_fields.find((field) => field.name === 'Source')
  const typed = await page.$eval('#target', (el) => (el as HTMLTextAreaElement).value)
  return { shown, told, typed, scriptedInputs: await page.evaluate(() => (window as unknown as { scriptedInputs: number }).scriptedInputs) }
}

const copies: [string, string][] = [
  ['a trailing space', 'Total due: 42 EUR '],
  ['leading spaces and a double space', '   Ref:  A-17'],
  ['line breaks, tabs, a blank line and a trailing newline', 'Dear team,\n\n\tthe meeting moves to 10:00.  \nBring   the notes.\n'],
]

for (const [what, source] of copies) {
  test(`a value with ${what} reaches both requests as it is, and the copy written from the text request is typed byte for byte`, async (t) => {
    const { shown, told, typed, scriptedInputs } = await copyRun(t, source)
    t.deepEqual(shown, { ...shown, value: source }, 'the decision request')
    t.is(shown.value_omitted, undefined)
    t.deepEqual(told, { name: 'Source', value: source }, 'the text request')
    t.is(typed, source, 'the field typed into')
    t.is(scriptedInputs, 0, 'inserted as typing inserts it, not set again by script')
  })
}

/** Numbered lines, `count` of them: where a part of the value starts and ends can be read from it. */
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(4, '0')}: ${'x'.repeat(28)}`).join('\n')

test('a long value is shown around the caret of the focused field, else from its start, with what was left out counted; the text request keeps 4,000 characters of it', async (t) => {
  const whole = numbered(150)
  t.is(whole.length, 5_999)
  const page = await copyPage(t, whole)
  const caret = whole.indexOf('line 0100')
  await page.$eval('#source', (el, at) => {
    const field = el as HTMLTextAreaElement
    field.focus()
    field.setSelectionRange(at, at)
  }, caret)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  const source = snapshot.observation.elements.find((element) => element.name === 'Source')!
  const { value, value_omitted: omitted } = describeElement(source) as { value: string; value_omitted: Omitted }
  t.is(value.length, LIMITS.valueLimit)
  t.is(omitted.before + value.length + omitted.after, whole.length)
  t.is(value, whole.slice(omitted.before, omitted.before + value.length), 'a part of the value, as it is')
  t.true(Math.abs(caret - omitted.before - LIMITS.valueLimit / 2) <= 1, `the caret at ${caret} is in the middle of the part from ${omitted.before}`)

  // The text model reads the kept part: 4,000 characters around the part shown, and what was left out.
  const request = textPrompt({ goal: 'Rewrite the notes.', observation: snapshot.observation, target: source, recent: [] })
  const field = request.field as { value: string; value_omitted: Omitted }
  t.is(field.value.length, LIMITS.keptValueLimit)
  t.is(field.value, whole.slice(field.value_omitted.before, field.value_omitted.before + LIMITS.keptValueLimit))
  t.is(field.value_omitted.before + field.value.length + field.value_omitted.after, whole.length)
  t.true(field.value.includes(value))

  // The page changing the value where no request shows it still makes the field stale.
  await snapshot.ready
  await page.$eval('#source', (el) => ((el as HTMLTextAreaElement).value = `${(el as HTMLTextAreaElement).value.slice(0, -1)}y`))
  t.like(await checkFreshness(snapshot, source.id), { fresh: false, reason: 'value changed' })

  // Without focus and scrolled to the top, the part shown is the start.
  await page.$eval('#source', (el) => {
    const field = el as HTMLTextAreaElement
    field.blur()
    field.scrollTop = 0
  })
  const later = await observe(page, { previous: snapshot })
  t.teardown(() => later.dispose())
  const unfocused = describeElement(later.observation.elements.find((element) => element.name === 'Source')!)
  t.like(unfocused, { value: whole.slice(0, LIMITS.valueLimit), value_omitted: { before: 0, after: whole.length - LIMITS.valueLimit } })
})
