import test from 'ava'
import { useChrome } from './helpers/chrome.ts'
import { observe } from '../src/collector/observe.ts'
import type { ObservedElement } from '../src/collector/observation.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// Controls without text are named from what draws them, in real Chrome (background images and
// class lists are read from the page's styles and markup as laid out), and say so; a layout name is
// a label a person reads, not content beside the field.

const chrome = useChrome(test)

async function offered(t: { teardown(fn: () => unknown): void }, html: string): Promise<ObservedElement[]> {
  const page = await chrome.page(t)
  // A page's images resolve against its address (about:blank has none); nothing is fetched from it.
  await page.setContent(`<!doctype html><html><head><base href="http://127.0.0.1:9/"></head><body>${html}<script>document.addEventListener('click', () => {})</script></body></html>`)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  return snapshot.observation.elements
}

const named = (elements: ObservedElement[]) => elements.map((element) => [element.name, element.nameFrom ?? null])

test('a mail toolbar of background-image spans is named by the images: send, back, star, trash', async (t) => {
  const elements = await offered(
    t,
    `<style>.tb span { display: inline-block; width: 24px; height: 24px; margin: 4px; cursor: pointer; background: no-repeat center / 20px }
       .tb .b1 { background-image: url("/img/icons/send.png") } .tb .b2 { background-image: url('/img/arrow_back@2x.png') }
       .tb .b3 { background-image: url(/img/star-outline.svg?v=3) } .tb .b4 { background: url(/assets/trash.png) no-repeat }</style>
     <div class="tb"><span class="b1"></span><span class="b2"></span><span class="b3"></span><span class="b4"></span></div>`,
  )
  t.deepEqual(named(elements), [['send', 'icon'], ['arrow back', 'icon'], ['star outline', 'icon'], ['trash', 'icon']])
})

test('an icon whose class says what it does is named by its class words, framework prefixes, sizes and colours left out', async (t) => {
  const elements = await offered(
    t,
    `<style>span, button { display: inline-block; width: 24px; height: 24px; cursor: pointer }</style>
     <span class="trash"></span>
     <span class="email-send"></span>
     <button class="btn btn-icon reply"></button>
     <span class="icon icon--lg text-red archive_box"></span>
     <button class="btn"><img src="/static/icons/star-outline.svg" alt="" width="20" height="20"></button>`,
  )
  t.deepEqual(named(elements), [['trash', 'icon'], ['email send', 'icon'], ['reply', 'icon'], ['archive box', 'icon'], ['star outline', 'icon']])
})

test("a count beside an icon keeps the icon's word, and a post's actions are never named after the post's text", async (t) => {
  const elements = await offered(
    t,
    `<style>.act { display: inline-flex; gap: 4px; cursor: pointer; margin-right: 12px } .act i { display: inline-block; width: 16px; height: 16px }
       .i-like { background: url(/ic/like.svg) } .i-share { background: url(/ic/share.svg) }</style>
     <article><p>Lunch at the harbour today</p>
       <div class="actions">
         <span class="act"><i class="i-like"></i><span>14</span></span>
         <span class="act"><i class="i-share"></i><span>1.2K</span></span>
         <span class="act"><i class="reply"></i><span>3</span></span>
         <span class="act"><i class="delete"></i></span>
       </div></article>`,
  )
  t.deepEqual(named(elements), [['like 14', 'icon'], ['share 1.2K', 'icon'], ['reply 3', 'icon'], ['delete', 'icon']])
})

test('a layout name is a label: not a "to: Audrey" line of content, not a paragraph before the field', async (t) => {
  const elements = await offered(
    t,
    `<div class="reply"><div>to: Audrey <textarea></textarea></div></div>
     <p>Tell us what happened in your own words.</p>
     <input>
     <p>Subject: <input></p>`,
  )
  t.deepEqual(named(elements), [['text field 1', 'position'], ['text field 2', 'position'], ['Subject', 'layout']])
})

test('two alike buttons with the same nearby text are told apart by their place among them, and the request says what that is', async (t) => {
  const elements = await offered(
    t,
    `<h3>Audrey Moss</h3><ul><li><span>Tuesday</span> <button>Reply</button></li></ul>
     <h3>Tomas Berg</h3><ul><li><span>Tuesday</span> <button>Reply</button></li></ul>
     <button>Archive</button>`,
  )
  t.deepEqual(
    elements.map((element) => [element.name, element.nearby, element.alike ?? null]),
    [['Reply', 'Tuesday', '1 of 2'], ['Reply', 'Tuesday', '2 of 2'], ['Archive', 'Tomas Berg', null]],
  )
})

test('the decision request sends alike and says what it counts, only when a control carries it', (t) => {
  const instructions = (elements: ObservedElement[]) => {
    const request = buildDecisionRequest({ goal: 'Reply to Tomas', observation: pageObservation({ url: 'http://127.0.0.1/', elements }), recent: [] })
    const sent = (request.state as { elements: { alike?: string }[] }).elements.map((element) => element.alike)
    return { sent, text: (request.questions.operation as { instructions: string }).instructions }
  }
  const alike = instructions([observedElement('e1', { name: 'Reply', alike: '1 of 2' }), observedElement('e2', { name: 'Reply', alike: '2 of 2' })])
  t.deepEqual(alike.sent, ['1 of 2', '2 of 2'])
  t.regex(alike.text, /carry alike, their place among them in page order/)
  t.notRegex(instructions([observedElement('e1', { name: 'Reply' })]).text, /alike/)
})
