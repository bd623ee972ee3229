import type { Browser, ElementHandle, Page } from 'puppeteer-core'
import type { Snapshot } from '../../src/collector/observation.ts'
import { buildDecisionRequest } from '../../src/decision/decision-request.ts'
import { messageOf } from '../common/message.ts'
import { median } from '../common/stats.ts'
import { closeContext, observeWhole, pause, within } from './bounded.ts'
import type { ReachCase } from './load-cases.ts'
import { allByText, describe, findByText, fold, isField, offeredOf, type Offered } from './match.ts'
import { recall, type Recall } from './recall.ts'

// The first part of a case: what the collector offers on a fresh load, and every check that needs
// only that observation (recall, duplicates, field names, inert controls, states), with the
// observation's time and the size of the decision request it makes.

export const OBSERVATIONS = 5
const OBSERVE_PAUSE_MS = 50
export const LOAD_TIMEOUT_MS = 5_000
const OBSERVE_TIMEOUT_MS = 10_000

export interface Inspection {
  offered: Offered[]
  /** Controls left out by the collector's cap. */
  omitted: number
  observeMs: number[]
  medianObserveMs: number | undefined
  requestChars: number | undefined
  recall: Recall
  /** Offered elements that repeat another: a node inside an equally named one, or a `nested` text offered again. */
  duplicates: string[]
  fieldNames: { listed: number; misses: string[] }
  /** Offered fields with no name at all. */
  unnamedFields: string[]
  inert: string[]
  states: { listed: number; misses: string[] }
  /** Why the page could not be inspected, when it could not. */
  error?: string
}

/** Opens `url` in a fresh context at the browser's 1280×800, waiting for `load` at most 5 s. */
export async function openFresh(browser: Browser, url: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS })
    return { page, close: () => closeContext(context) }
  } catch (error) {
    await closeContext(context)
    throw error
  }
}

export async function inspectCase(browser: Browser, url: string, reachCase: ReachCase): Promise<Inspection> {
  let opened: Awaited<ReturnType<typeof openFresh>> | undefined
  let snapshot: Snapshot | undefined
  const times: number[] = []
  try {
    opened = await openFresh(browser, url)
    for (let run = 0; run < OBSERVATIONS; run++) {
      if (run > 0) await pause(OBSERVE_PAUSE_MS)
      const started = performance.now()
      snapshot = await within(OBSERVE_TIMEOUT_MS, 'observe()', observeWhole(opened.page, { previous: snapshot }))
      times.push(Math.round((performance.now() - started) * 10) / 10)
    }
    const observation = snapshot!.observation
    const { state, questions } = buildDecisionRequest({ goal: reachCase.task.goal, observation, recent: [] })
    const offered = observation.elements.map((element, index) => offeredOf(element as unknown as Record<string, unknown>, index))
    return {
      ...judge(reachCase, offered),
      offered,
      omitted: observation.omitted,
      observeMs: times,
      medianObserveMs: median(times),
      requestChars: JSON.stringify({ state, questions }).length,
      duplicates: await duplicates(reachCase, offered, snapshot!),
    }
  } catch (error) {
    // Nothing offered: every listed control is missed, and the error says why.
    const empty = { offered: [], omitted: 0, requestChars: undefined, duplicates: [] }
    return { ...judge(reachCase, []), ...empty, observeMs: times, medianObserveMs: median(times), error: messageOf(error) }
  } finally {
    await snapshot?.dispose().catch(() => {})
    await opened?.close()
  }
}

type Judged = Pick<Inspection, 'recall' | 'fieldNames' | 'unnamedFields' | 'inert' | 'states'>

/** The checks that read the offered list alone. */
function judge(reachCase: ReachCase, offered: readonly Offered[]): Judged {
  const fields = offered.filter(isField)
  // A layout-named control may be a toggle drawn without text as well as a field.
  const fieldMisses = (reachCase.fieldNames ?? []).filter((text) => !offered.some((element) => fold(element.name) === fold(text)))
  const inertTexts = new Set((reachCase.inert ?? []).map(fold))
  const stateMisses = (reachCase.states ?? []).flatMap((want) => {
    const shown = JSON.stringify(want.value)
    // Read defensively: an older collector has no `current` at all. An option of an offered select
    // or listbox carries only `selected`. An exact name or label goes before a name holding the text.
    const exact = offered.find((candidate) => fold(candidate.name) === fold(want.control))
    const option = exact ? undefined : optionNamed(offered, want.control)
    const element = exact ?? (option ? undefined : findByText(offered, want.control))
    if (!element && !option) return [`${want.control}: ${want.state}=${shown} (the control is not offered)`]
    const have = element ? element.state?.[want.state] : want.state === 'selected' ? option!.selected : undefined
    if (have === want.value) return []
    return [`${want.control}: ${want.state}=${shown}, offered ${have === undefined ? 'without it' : `${want.state}=${JSON.stringify(have)}`}`]
  })
  return {
    recall: recall(reachCase.controls, offered),
    fieldNames: { listed: reachCase.fieldNames?.length ?? 0, misses: fieldMisses },
    unnamedFields: fields.filter((field) => fold(field.name) === '').map(describe),
    inert: offered.filter((element) => inertTexts.has(fold(element.name))).map(describe),
    states: { listed: reachCase.states?.length ?? 0, misses: stateMisses },
  }
}

/** The first option of an offered element labelled exactly `text`. */
function optionNamed(offered: readonly Offered[], text: string): { selected: boolean } | undefined {
  return offered.flatMap((element) => element.options ?? []).find((option) => fold(option.label) === fold(text))
}

/**
 * Offered elements that repeat another. A pair whose nodes contain one another and whose names are
 * equal: the later one in offered order repeats the earlier. A `nested` text: every match after the
 * first. An element counts once whatever made it a repeat.
 */
async function duplicates(reachCase: ReachCase, offered: readonly Offered[], snapshot: Snapshot): Promise<string[]> {
  const repeats = new Map<number, string>()
  // Only elements of one frame with one name can pair, so each such group is checked in one call.
  const groups = new Map<string, Offered[]>()
  for (const element of offered) {
    if (fold(element.name) === '') continue
    const key = `${element.frame}\u0000${fold(element.name)}`
    groups.set(key, [...(groups.get(key) ?? []), element])
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue
    const handles = group.map((element) => snapshot.handles.get(element.id))
    if (handles.some((handle) => !handle)) continue
    const [first, ...rest] = handles as ElementHandle<Element>[]
    const pairs = await within(
      5_000,
      'the containment check',
      first!.evaluate((head, ...tail) => {
        const nodes = [head, ...tail] as Element[]
        const found: [number, number][] = []
        for (let a = 0; a < nodes.length; a++)
          for (let b = a + 1; b < nodes.length; b++) if (nodes[a]!.contains(nodes[b]!) || nodes[b]!.contains(nodes[a]!)) found.push([a, b])
        return found
      }, ...rest),
    ).catch(() => [] as [number, number][])
    for (const [a, b] of pairs) {
      const later = group[b]!
      if (!repeats.has(later.index)) repeats.set(later.index, `${describe(later)} inside or around ${describe(group[a]!)} of the same name`)
    }
  }
  // A control listed under a name of its own ("More actions for Contracts") repeats no other.
  const listed = new Set(reachCase.controls.map(fold))
  for (const text of reachCase.nested ?? []) {
    const [, ...extra] = allByText(offered, text).filter((element) => fold(element.name) === fold(text) || !listed.has(fold(element.name)))
    for (const element of extra) if (!repeats.has(element.index)) repeats.set(element.index, `${describe(element)}: "${text}" offered again (nested)`)
  }
  return [...repeats.entries()].sort(([a], [b]) => a - b).map(([, reason]) => reason)
}
