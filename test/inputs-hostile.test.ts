import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent, { BlockedError } from '../src/index.ts'
import type { GoalResult } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel, type ScriptStep, type SeenRequest } from './helpers/goal-scripted-model.ts'

// The inputs of inputs-chrome.test.ts on pages that swap, cover or move what the input is aimed at while
// it happens: a field swapped as the pointer arrives, focus handed to another field or button, a menu
// covered, a list's option or item swapped, a password field swapped for a plain one as a secret is typed,
// focus moved onto a button before a key meant for the page, a scrolled textarea replaced. Each page runs RUNS times and counts, in the page, every
// trusted event on the element the input must never reach: each count must stay 0, and every run ends
// with a stale decision (found before the input) or input_redirected (found during it), never success;
// but for a click into a field that gave it focus before the page moved focus on: the click landed,
// and the text typed next still goes into the field chosen.

const RUNS = 5
const chrome = useChrome(test)
const servers = useFixtureServers(test)

type Counts = Record<string, number>

const countsOf = (page: Page) => page.evaluate(() => (window as unknown as { counts: Counts }).counts)
const statusOf = (page: Page) => page.$eval('#status', (status) => status.textContent)

type Script = (request: SeenRequest, index: number) => ScriptStep

/** The step on the element named `name` while the page offers it; BLOCKED once it does not. */
function whileOffered(name: string, step: Omit<ScriptStep, 'target'>): Script {
  return (request, index) => (index === 0 || request.elements.some((element) => element.name === name) ? { ...step, target: name } : { operation: 'BLOCKED' })
}

/** The script's first step, then BLOCKED: for a target that stays on the page after its decision went stale. */
function once(step: ScriptStep): Script {
  return (_request, index) => (index === 0 ? step : { operation: 'BLOCKED' })
}

function goal(page: Page, script: Script | ScriptStep[], ...texts: string[]): Promise<GoalResult> {
  return agent(page).goal('Use the page.', { decisions: scriptedModel(script).model, text: textModel(...texts, 'unused'), checklist: false })
}

/** How a run that must not succeed ended: `stale: <reason>` for a discarded decision, or the stop reason. */
function ending(result: GoalResult): string[] {
  const endings = result.trace.filter((entry) => entry.stale).map((entry) => `stale: ${entry.staleReason}`)
  if (result.error instanceof BlockedError) endings.push(result.error.reason)
  return endings
}

/**
 * Runs `runOnce` RUNS times on a fresh load of `url`, the pointer in the corner as for a new visitor;
 * returns each run's result and the page's counts summed over the runs.
 */
async function repeat(t: { log(...values: unknown[]): void }, page: Page, url: string, runOnce: (run: number) => Promise<GoalResult>) {
  const totals: Counts = {}
  const results: GoalResult[] = []
  const statuses: string[] = []
  for (let run = 0; run < RUNS; run++) {
    await page.goto(url)
    await page.mouse.move(0, 0)
    results.push(await runOnce(run))
    for (const [key, count] of Object.entries(await countsOf(page))) totals[key] = (totals[key] ?? 0) + count
    statuses.push((await statusOf(page)) ?? '')
  }
  t.log(totals, results.map((result) => ending(result).join(', ')).slice(0, 2))
  return { totals, results, statuses }
}

test('CLICK into a field swapped for another as the pointer arrives: the other is never pressed, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/fields.html?swap'), () =>
    goal(page, whileOffered('Notes', { operation: 'CLICK' })),
  )
  t.is(totals['pointerdown:decoy'] ?? 0, 0)
  t.is(totals['focus:decoy'] ?? 0, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <textarea#decoy> at the target's point/)
  }
})

test('CLICK into a field whose click hands focus to another field: the click landed, the text typed next goes into the field chosen, nothing into the other', async (t) => {
  const page = await chrome.page(t)
  // Half the runs move focus on mouseup, half on click.
  const url = (run: number) => servers.site.url(`sites/inputs/fields.html?redirect=${run % 2 ? 'click' : 'mouseup'}`)
  const totals: Counts = {}
  for (let run = 0; run < RUNS; run++) {
    await page.goto(url(run))
    await page.mouse.move(0, 0)
    const scripted = scriptedModel([{ operation: 'CLICK', target: 'Notes' }, { operation: 'TYPE_TEXT', target: 'Notes' }, { operation: 'DONE' }])
    const result = await agent(page).goal('Use the page.', { decisions: scripted.model, text: textModel('Ring twice'), checklist: false })
    t.is(result.status, 'success', result.error?.message)
    t.deepEqual(
      result.trace.map((entry) => [entry.operation, entry.stale]),
      [
        ['CLICK', false],
        ['TYPE_TEXT', false],
        ['DONE', false],
      ],
    )
    // The request after the click shows where the page moved focus.
    t.deepEqual(
      scripted.seen[1]!.elements.filter((element) => element.focused).map((element) => element.name),
      ['Message to all customers'],
    )
    t.is(await page.$eval('#notes', (field) => (field as HTMLTextAreaElement).value), 'Ring twice')
    t.is(await page.$eval('#broadcast', (field) => (field as HTMLInputElement).value), '')
    for (const [key, count] of Object.entries(await countsOf(page))) totals[key] = (totals[key] ?? 0) + count
  }
  t.log(totals)
  t.is(totals['pointerdown:notes'], RUNS)
  t.is(totals['keydown:broadcast'] ?? 0, 0)
  t.is(totals['input:broadcast'] ?? 0, 0)
})

test('CLICK into a field that already holds focus, whose click hands focus to another field: the click landed', async (t) => {
  const page = await chrome.page(t)
  const { results } = await repeat(t, page, servers.site.url('sites/inputs/fields.html?redirect=click'), async () => {
    await page.focus('#notes')
    return goal(page, [{ operation: 'CLICK', target: 'Notes' }, { operation: 'DONE' }])
  })
  for (const result of results) {
    t.is(result.status, 'success', result.error?.message)
    t.deepEqual(
      result.trace.map((entry) => [entry.operation, entry.stale]),
      [
        ['CLICK', false],
        ['DONE', false],
      ],
    )
  }
})

test('CLICK into a field whose focus hands focus on to another field: the click landed, TYPE_TEXT into it is stale, nothing is typed into the other', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/fields.html?redirect=focus'), () =>
    goal(page, [{ operation: 'CLICK', target: 'Notes' }, { operation: 'TYPE_TEXT', target: 'Notes' }, { operation: 'DONE' }], 'Ring twice'),
  )
  t.is(totals['keydown:broadcast'] ?? 0, 0)
  t.is(totals['input:broadcast'] ?? 0, 0)
  t.is(totals['input:notes'] ?? 0, 0)
  for (const result of results) {
    t.deepEqual(
      result.trace.map((entry) => [entry.operation, entry.stale]),
      [
        ['CLICK', false],
        ['TYPE_TEXT', true],
        ['DONE', false],
      ],
    )
    t.deepEqual(ending(result), ['stale: after focus: not focused'])
  }
})

test('CLICK into a field that moves focus to another field on its press: focus never reaches it, the run ends input_redirected', async (t) => {
  const page = await chrome.page(t)
  const { totals, results, statuses } = await repeat(t, page, servers.site.url('sites/inputs/focus-ends.html?steal'), () =>
    goal(page, [{ operation: 'CLICK', target: 'Nickname' }, { operation: 'DONE' }]),
  )
  t.is(totals['focus:nickname'] ?? 0, 0)
  t.is(totals['focus:coupon'], RUNS)
  t.deepEqual(statuses, Array(RUNS).fill(''))
  for (const result of results) {
    t.is(result.status, 'error')
    t.deepEqual(ending(result), ['input_redirected'])
    t.regex(result.error?.message ?? '', /^The input of CLICK e\d+ \("Nickname"\) did not land on its target: the click left keyboard focus on <input "coupon">, not in the field/)
  }
})

test('PRESS Enter in a search field that hands focus to "Delete all loans": the button never gets the key, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/keys.html?nomodal&steal'), () =>
    goal(page, once({ operation: 'PRESS', target: 'Search the catalogue', key: 'Enter' })),
  )
  t.is(totals.delete, 0)
  t.is(totals.enter, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.is(ending(result)[0], 'stale: after focus: not focused')
  }
})

test('HOVER on a menu covered by another layer under the decision: the layer never gets the pointer, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const cover = () => page.evaluate(() => (window as unknown as { coverProducts(): void }).coverProducts())
  const { totals, results, statuses } = await repeat(t, page, servers.site.url('sites/inputs/menus.html'), () =>
    goal(page, once({ operation: 'HOVER', target: 'Products', before: cover })),
  )
  t.is(totals.overlay, 0)
  t.deepEqual(statuses, Array(RUNS).fill(''))
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: (covered|the browser's hit test found <div#overlay> "Win a prize")/)
  }
})

test('SELECT of a listbox option swapped for "Remove all" as the pointer arrives: it is never pressed, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  // SELECT on the listbox where the page offers it, else a click on the option itself: either way the
  // pointer goes to "French", and the page swaps it.
  const script: Script = (request, index) => {
    const list = request.elements.find((element) => element.name === 'Languages')
    if (list?.options?.some((option) => option.label === 'French')) return { operation: 'SELECT', target: 'Languages', option: 'French' }
    if (index === 0 || request.elements.some((element) => element.name === 'French')) return { operation: 'CLICK', target: 'French' }
    return { operation: 'BLOCKED' }
  }
  const { totals, results, statuses } = await repeat(t, page, servers.site.url('sites/inputs/choices.html?swap'), () => goal(page, script))
  t.is(totals.remove, 0)
  t.is(totals.pointerdown, 0)
  t.deepEqual(statuses, Array(RUNS).fill(''))
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <div#remove> "Remove all" at the target's point/)
  }
})

test('DRAG of a list item swapped for "Delete list" as the pointer arrives: it is never pressed, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const { totals, results, statuses } = await repeat(t, page, servers.site.url('sites/inputs/drag.html?swap'), () =>
    goal(page, whileOffered('Item C', { operation: 'DRAG', to: 'Item A' })),
  )
  t.is(totals.pointerdown, 0)
  t.deepEqual(statuses, Array(RUNS).fill(''))
  t.deepEqual(await page.$$eval('#list li', (items) => items.map((item) => item.textContent)), ['Item A', 'Item B', 'Delete list', 'Item D'])
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <li#danger> "Delete list" at the target's point/)
  }
})

test('DRAG of a slider thumb covered by "Factory reset" as the pointer arrives: it is never pressed, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/drag.html?swap'), () =>
    goal(page, once({ operation: 'DRAG', target: 'Brightness', to: 'right-25' })),
  )
  t.is(totals.pointerdown, 0)
  t.is(await page.$eval('#thumb', (thumb) => thumb.getAttribute('aria-valuenow')), '10')
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <div#reset> "Factory reset" at the target's point/)
  }
})

test('TYPE_TEXT of a secret into a password field swapped for a plain one on focus: the secret never reaches it, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const secret = 'pa55-w0rd!'
  const { totals, results } = await repeat(t, page, servers.site.url('sites/hostile/swap-password.html'), () =>
    agent(page).goal('Sign in with %password%.', {
      decisions: scriptedModel(once({ operation: 'TYPE_TEXT', target: 'Password' })).model,
      text: textModel('%password%'),
      checklist: false,
      secrets: { password: secret },
    }),
  )
  t.is(totals.decoy, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: after focus: (detached|node changed)/)
    t.false(JSON.stringify(result).includes(secret))
  }
})

test('PRESS Enter to the page after the page moved focus onto "Delete all loans": the button never gets the key, the run ends input_redirected', async (t) => {
  const page = await chrome.page(t)
  const stealFocus = () => page.evaluate(() => document.getElementById('danger')!.focus())
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/keys.html?nomodal'), () =>
    goal(page, once({ operation: 'PRESS', target: 'page', key: 'Enter', before: stealFocus })),
  )
  t.is(totals.delete, 0)
  for (const result of results) {
    t.deepEqual(ending(result), ['input_redirected'])
    t.regex(result.error?.message ?? '', /the keydown of the key press reached <button#danger> "Delete all loans", not the target/)
  }
})

test('SCROLL_DOWN in a textarea the page replaces under the decision: the new one is never scrolled, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const fill = () =>
    page.$eval('#notes', (notes) => {
      ;(notes as HTMLTextAreaElement).value = Array.from({ length: 60 }, (_, line) => `Line ${line + 1}`).join('\n')
    })
  // The page puts a copy in its place, which counts every scroll it receives.
  const replace = () =>
    page.evaluate(() => {
      const old = document.getElementById('notes') as HTMLTextAreaElement
      const copy = old.cloneNode(true) as HTMLTextAreaElement
      copy.id = 'copy'
      copy.value = old.value
      copy.addEventListener('scroll', () => ((window as unknown as { counts: Counts }).counts.scroll = ((window as unknown as { counts: Counts }).counts.scroll ?? 0) + 1))
      old.replaceWith(copy)
    })
  const { totals, results } = await repeat(t, page, servers.site.url('sites/inputs/fields.html'), async () => {
    await fill()
    const script: Script = (request, index) => {
      const notes = (request.page as unknown as { scroll?: { id: string; name: string }[] }).scroll?.find((target) => target.name === 'Notes')
      return index === 0 && notes ? { operation: 'SCROLL_DOWN', target: notes.id, before: replace } : { operation: 'BLOCKED' }
    }
    return goal(page, script)
  })
  t.is(totals.scroll ?? 0, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the scroll container is no longer in the document/)
  }
})
