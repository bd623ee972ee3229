import { animatingSince, busySince } from './busy-regions.ts'
import { focusedElement } from './capabilities.ts'
import { DATE_FORMATS } from './date-formats.ts'
import {
  attributeOf,
  clientHeightOf,
  formFields,
  innerTextOf,
  isConnectedNode,
  listenOn,
  ownerDocumentOf,
  queryOne,
  scrollElementBy,
  scrollTopOf,
  shadowRootOf,
  stopListening,
  submitForm,
  tagNameOf,
  textContentOf,
} from './dom-safe.ts'
import { listOptions } from './dom.ts'
import { formOf } from './forms.ts'
import { mutationsSeen, observedBefore, startedWatch, type FrameWatch } from './frame-watch.ts'
import { lastObservationStands } from './reused-report.ts'
import { collapse } from './text.ts'
import { disabled } from './visibility.ts'

// What the executor does inside the page: type over a focused field, plan and request a form's
// submit, scroll by a page, wait for the DOM to go quiet, find a listbox option by its text.

/** Outcome of replacing a control's value. */
export type ReplaceResult = { ok: true; value: string; password?: true } | { ok: false; reason: string }

/**
 * Replaces the value of a focused input, textarea or editing host with `text`, the way typing over a
 * selection does. The focus check and the insertion run in one task, so nothing can move focus between them.
 * `password` is set when the field is a password one as the value goes in (before it, or once the
 * page's input handlers have run), whatever it was when the page was observed: the value is a secret then.
 */
export function replaceFocusedValue(element: Element, text: string): ReplaceResult {
  const doc = ownerDocumentOf(element)
  const active = focusedElement(doc)
  if (active !== element) {
    const holder = active ? tagNameOf(active).toLowerCase() : 'nothing'
    return { ok: false, reason: `the target does not hold keyboard focus (${holder} does)` }
  }
  const tag = tagNameOf(element)
  const isField = tag === 'INPUT' || tag === 'TEXTAREA'
  const editable = element as HTMLElement
  if (!isField && !editable.isContentEditable) return { ok: false, reason: `a ${tag.toLowerCase()} takes no text` }

  const read = (): string => (isField ? (element as HTMLInputElement).value : (innerTextOf(editable) ?? textContentOf(editable) ?? ''))
  const isPassword = (): boolean => tag === 'INPUT' && (element as HTMLInputElement).type === 'password'
  const passwordBefore = isPassword()
  // A date or time field takes no typed text: its value is set whole, as its picker sets it.
  const dateType = tag === 'INPUT' ? (element as HTMLInputElement).type : ''
  const dateFormat = DATE_FORMATS.get(dateType)
  // Read only for such a field: an editing host's text costs a layout.
  const valueBefore = dateFormat === undefined ? '' : read()
  if (isField) {
    const field = element as HTMLInputElement
    try {
      field.select()
    } catch {
      // Some input types have no selection; the fallback below replaces the value directly.
    }
  } else {
    const selection = doc.getSelection()
    const range = doc.createRange()
    range.selectNodeContents(element)
    selection?.removeAllRanges()
    selection?.addRange(range)
  }
  let inserted = false
  try {
    // insertText fires beforeinput and input like typed text and keeps the page's undo history.
    inserted = typeof doc.execCommand === 'function' && doc.execCommand('insertText', false, text)
  } catch {
    inserted = false
  }
  // The field must hold the text exactly, its edges and line breaks included; an editing host's text
  // as innerText reads it may end with a line break of its own, after its last block.
  const held = (): string => (isField ? read() : read().replace(/\n$/, ''))
  if (!inserted || held() !== text) {
    if (isField) {
      setFieldValue(element as HTMLInputElement, text)
      // The browser empties a date or time field given a value in another format: it keeps its value then.
      if (dateFormat !== undefined && read() === '' && text.trim() !== '') {
        setFieldValue(element as HTMLInputElement, valueBefore)
        return { ok: false, reason: `a ${dateType} field takes its value written as ${dateFormat}, which ${JSON.stringify(text.slice(0, 40))} is not` }
      }
    } else {
      element.textContent = text
    }
    announceInput(element, text)
    // A picker commits its value with a change event too, which pages listen for more than for input.
    if (dateFormat !== undefined) element.dispatchEvent(new (doc.defaultView ? doc.defaultView.Event : Event)('change', { bubbles: true }))
  }
  const value = held()
  return passwordBefore || isPassword() ? { ok: true, value, password: true } : { ok: true, value }
}

/** The value of a text field (input or textarea), or null for anything else: what an edit of part of it reads. */
export function fieldValue(element: Element): string | null {
  const tag = tagNameOf(element)
  return tag === 'INPUT' || tag === 'TEXTAREA' ? (element as HTMLInputElement).value : null
}

/**
 * Types `text` over the range `start`–`end` of the focused field's value, which must still be
 * `expected` (the value the edit was computed from), the way a person selects a passage and types
 * over it: insertText keeps the page's undo history and fires beforeinput and input. The whole value
 * is set directly, with an input event, where the field takes no selection or insertText.
 */
export function editFocusedValue(element: Element, expected: string, start: number, end: number, text: string): ReplaceResult {
  const doc = ownerDocumentOf(element)
  const active = focusedElement(doc)
  if (active !== element) {
    const holder = active ? tagNameOf(active).toLowerCase() : 'nothing'
    return { ok: false, reason: `the target does not hold keyboard focus (${holder} does)` }
  }
  const field = element as HTMLInputElement
  if (fieldValue(element) !== expected) return { ok: false, reason: 'the field\'s value changed while the edit was made' }
  const wanted = expected.slice(0, start) + text + expected.slice(end)
  let inserted = false
  try {
    field.setSelectionRange(start, end)
    // An empty text deletes the passage, as Delete does over a selection.
    inserted = typeof doc.execCommand === 'function' && (text === '' ? start === end || doc.execCommand('delete') : doc.execCommand('insertText', false, text))
  } catch {
    // Some input types have no selection; the value is set whole below.
    inserted = false
  }
  if (!inserted || field.value !== wanted) {
    setFieldValue(field, wanted)
    announceInput(element, text)
  }
  return field.type === 'password' ? { ok: true, value: field.value, password: true } : { ok: true, value: field.value }
}

/** Sets a field's value through its prototype's setter, which frameworks that track the value (React) read. */
function setFieldValue(field: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set
  if (setter) setter.call(field, value)
  else field.value = value
}

/** The input event typing fires, for a value set directly. */
function announceInput(element: Element, text: string): void {
  const view = ownerDocumentOf(element).defaultView
  const InputEventCtor = view && typeof view.InputEvent === 'function' ? view.InputEvent : null
  element.dispatchEvent(
    InputEventCtor
      ? new InputEventCtor('input', { bubbles: true, composed: true, inputType: 'insertText', data: text })
      : new (view ? view.Event : Event)('input', { bubbles: true, composed: true }),
  )
}

/** How a user would submit the target's form: click a submit button, press Enter in a field, or submit the form. */
export type SubmitPlan = 'click' | 'enter' | 'request-submit'

export function planSubmit(element: Element): SubmitPlan {
  const tag = tagNameOf(element)
  const type = (attributeOf(element, 'type') ?? '').toLowerCase()
  const isButton = tag === 'BUTTON' && (type === '' || type === 'submit')
  if (isButton || (tag === 'INPUT' && (type === 'submit' || type === 'image'))) return 'click'
  const form = formOf(element)
  const textLike = ['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']
  if (tag === 'INPUT' && textLike.includes(type)) {
    if (!form) return 'enter'
    // Enter submits a form only when it has a submit button or a single field that blocks implicit submission.
    const hasButton = queryOne(form, 'button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]') !== null
    const blocking = Array.from(formFields(form)).filter(
      (field) => field.tagName === 'INPUT' && textLike.includes((attributeOf(field, 'type') ?? '').toLowerCase()),
    )
    return hasButton || blocking.length === 1 ? 'enter' : 'request-submit'
  }
  return form ? 'request-submit' : 'enter'
}

/** Submits the target's form as its own submit would: validation and the submit event included. */
export function requestSubmit(element: Element): boolean {
  const form = formOf(element)
  if (!form) return false
  submitForm(form)
  return true
}

/** How long a scroll waits for its scroll event: a frame, or a few when the renderer is busy. */
const SCROLL_EVENT_MS = 200

/**
 * Scrolls the page (no element) or a container by most of its visible height; resolves with how far
 * it moved once the scroll event has been dispatched. The browser fires it at the next frame, and the
 * page's own listeners act on it then (a terms box enables its "I accept", a feed loads more): the
 * settling after the input must see what they did. A tab that draws no frames gets the bound.
 */
export function scrollByPage(element: Element | null, direction: number): Promise<number> {
  const box = element ?? document.scrollingElement ?? document.documentElement
  const height = element ? clientHeightOf(element) : window.innerHeight
  const before = scrollTopOf(box)
  const distance = Math.max(40, Math.round(height * 0.8)) * direction
  if (element) scrollElementBy(element, { top: distance, behavior: 'instant' })
  else window.scrollBy({ top: distance, behavior: 'instant' })
  const moved = scrollTopOf(box) - before
  if (moved === 0) return Promise.resolve(0)
  const target: EventTarget = element ?? document
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      stopListening(target, 'scroll', done)
      resolve(moved)
    }
    const timer = setTimeout(done, SCROLL_EVENT_MS)
    listenOn(target, 'scroll', done)
  })
}

/** How a wait for DOM quiet ended. */
export interface Quiet {
  /** Mutations seen while waiting (counted from the call, not from the input). */
  mutations: number
  /**
   * The document's last observation still stands at the end of the wait (reused-report.ts): an
   * observation made while the wait ran shows the page as it settled.
   */
  observationStands: boolean
}

/**
 * Resolves once no DOM mutation has happened for `quietMs` (or after `maxMs`). Open shadow roots are
 * watched too, since a document observer does not see into them. `sinceInputMs` is how long ago the
 * input that is being settled happened: in a document already observed, its watch has seen every
 * mutation since, so the quiet is counted from the input, not from this call. With `target` (the
 * control the input went to, offered because it was enabled), the wait goes on while the page keeps
 * it disabled: the page is at work on what the input asked.
 */
export function waitForDomQuiet(quietMs: number, maxMs: number, sinceInputMs = 0, target?: Element): Promise<Quiet> {
  const held = () => target !== undefined && isConnectedNode(target) && disabled(target)
  const watch = startedWatch()
  if (watch) return quietFromWatch(watch, quietMs, maxMs, sinceInputMs, held)
  return new Promise((resolve) => {
    const start = performance.now()
    let last = start
    let mutations = 0
    const observer = new MutationObserver((records) => {
      mutations += records.length
      last = performance.now()
    })
    const options = { subtree: true, childList: true, attributes: true, characterData: true }
    observer.observe(document, options)
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT)
    const roots: ShadowRoot[] = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const root = shadowRootOf(node as Element)
      if (root) roots.push(root)
    }
    // Roots inside roots: the tree walker does not enter shadow trees.
    for (let i = 0; i < roots.length; i += 1) {
      observer.observe(roots[i], options)
      for (const inner of Array.from(roots[i].querySelectorAll('*'))) {
        const root = shadowRootOf(inner)
        if (root) roots.push(root)
      }
    }
    const check = () => {
      const now = performance.now()
      const quiet = now - last >= quietMs
      if ((quiet && !held()) || now - start >= maxMs) {
        observer.disconnect()
        // Never observed: there is no observation to stand.
        resolve({ mutations, observationStands: false })
        return
      }
      setTimeout(check, quiet ? quietMs : Math.max(1, quietMs - (now - last)))
    }
    setTimeout(check, quietMs)
  })
}

function quietFromWatch(watch: FrameWatch, quietMs: number, maxMs: number, sinceInputMs: number, held: () => boolean): Promise<Quiet> {
  const start = performance.now()
  const input = start - sinceInputMs
  // Regions that became busy after the page was seen for the input's decision: the input's, whatever
  // the lag between its delivery and the time Node took for it.
  const shown = observedBefore(watch, input)
  const countBefore = mutationsSeen()!.count
  return new Promise((resolve) => {
    const check = () => {
      const seen = mutationsSeen()!
      const now = performance.now()
      const last = Math.max(input, seen.at)
      const quiet = now - last >= quietMs
      // Quiet while a region the input made busy is still shown busy, its control still held disabled,
      // or what it set moving still moves, is not quiet: the page is still at work.
      if ((quiet && !busySince(watch.busy, shown) && !held() && !animatingSince(shown)) || now - start >= maxMs) {
        resolve({ mutations: seen.count - countBefore, observationStands: lastObservationStands(watch) })
        return
      }
      setTimeout(check, quiet ? quietMs : Math.max(1, quietMs - (now - last)))
    }
    check()
  })
}

/** The option element of a listbox (ARIA `option` inside it, or owned by it) whose whole text is `label`. */
export function findListOption(listbox: Element, label: string): Element | null {
  const wanted = collapse(label)
  return listOptions(listbox).find((option) => collapse(textContentOf(option) ?? '') === wanted) ?? null
}

/** Resolves once the document's content is parsed (DOMContentLoaded), at once when it already is. */
export function documentParsed(): Promise<void> {
  return new Promise((resolve) => {
    if (document.readyState !== 'loading') resolve()
    else document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })
  })
}
