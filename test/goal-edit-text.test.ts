import test, { type ExecutionContext } from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { replyingTextModel, scriptedModel, type TextReply } from './helpers/goal-scripted-model.ts'

// TYPE_TEXT that changes part of a long field, in real Chrome (fixture sites/wiki-edit-part: a wiki
// page's source of over 6,000 characters in a textarea whose state, as a framework's controlled one,
// follows input events only). The text model writes the edit; the executor places it by the value the
// field holds at input time, and refuses a passage not in it exactly once, with nothing typed.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const GOAL = 'Update the release handbook as asked, keeping the rest of the page as it is, and save.'

async function openEditor(t: ExecutionContext): Promise<{ page: Page; original: string }> {
  const page = await chrome.open(t, servers.site.url('/sites/wiki-edit-part/'))
  const original = await page.$eval('#source', (el) => (el as HTMLTextAreaElement).value)
  return { page, original }
}

/** Runs the goal with one TYPE_TEXT into the page source written as `reply`, then Save, then DONE. */
async function editAndSave(page: Page, reply: TextReply) {
  const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Page source' }, { operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }])
  const text = replyingTextModel(() => reply)
  const result = await agent(page).goal(GOAL, { decisions: scripted.model, text: text.model, checklist: false })
  const saved = await page.$eval('#saved', (el) => el.textContent)
  return { result, scripted, saved }
}

test('goal: one line in the middle of a 6,000-character page source is replaced; the saved page is the original with that line changed, and the history says what was edited', async (t) => {
  const { page, original } = await openEditor(t)
  t.true(original.length > 6_000, `${original.length} characters`)
  const at = original.indexOf('Decision: pending\n')
  t.true(at > 2_000 && at < original.length - 2_000, `the line is at ${at}`)

  const { result, scripted, saved } = await editAndSave(page, { edit: 'replace', quote: 'Decision: pending\n', text: 'Decision: approved on 2026-12-05\n' })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  // The page's state (kept from input events, as a controlled textarea's) has the change.
  t.is(saved, original.replace('Decision: pending\n', 'Decision: approved on 2026-12-05\n'))
  t.like(result.trace[0], { operation: 'TYPE_TEXT', text: 'Decision: approved on 2026-12-05\n', edit: { mode: 'replace', quote: 'Decision: pending\n' } })
  t.like(scripted.seen[1]!.recent[0], { operation: 'TYPE_TEXT', edit: 'replace', quote: 'Decision: pending\n', text: 'Decision: approved on 2026-12-05\n' })
})

test('goal: a row inserted after a quoted table row, and a line appended, reach the saved page and nothing else changes', async (t) => {
  const { page, original } = await openEditor(t)
  const row = '|-\n| Windows  || 11   || partly\n'
  const inserted = await editAndSave(page, { edit: 'insert_after', quote: '| macOS    || 15.1 || yes\n', text: row })
  t.is(inserted.result.status, 'success')
  t.is(inserted.saved, original.replace('| macOS    || 15.1 || yes\n', `| macOS    || 15.1 || yes\n${row}`))

  const appended = await editAndSave(page, { edit: 'append', text: '[[Category:Release process]]\n' })
  t.is(appended.result.status, 'success')
  t.is(appended.saved, `${inserted.saved}[[Category:Release process]]\n`)
})

for (const [found, quote, reason] of [
  ['twice', '* See also: [[Release calendar]]\n', /more than once/],
  ['nowhere', 'Decision: rejected\n', /not in the field's value/],
] as const) {
  test(`goal: an edit whose quoted passage is found ${found} is refused with its reason, nothing is typed, and the next request is told`, async (t) => {
    const { page, original } = await openEditor(t)
    const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Page source' }, { operation: 'DONE' }])
    const text = replyingTextModel(() => ({ edit: 'replace', quote, text: 'See also: nothing\n' }))
    const result = await agent(page).goal(GOAL, { decisions: scripted.model, text: text.model, checklist: false })
    t.is(result.error, undefined)
    t.regex(result.trace[0]!.refused ?? '', reason)
    t.false(result.trace[0]!.stale)
    t.like(scripted.seen[1]!.recent[0], { operation: 'TYPE_TEXT', outcome: 'refused', edit: 'replace', quote })
    t.regex(scripted.seen[1]!.recent[0]!.detail ?? '', reason)
    t.is(await page.$eval('#source', (el) => (el as HTMLTextAreaElement).value), original)
    t.is(await page.evaluate(() => (window as unknown as { inputEvents: number }).inputEvents), 0)
  })
}
