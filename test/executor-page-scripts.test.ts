import test from 'ava'
import { callInDom, makeDom } from './helpers/jsdom.ts'
import { observeDom } from './fixtures/collector/jsdom-layout.ts'

// The executor's page scripts, run from their source text inside jsdom as Puppeteer would run them.

test('replaceFocusedValue replaces the whole value of the focused input and fires input', (t) => {
  const dom = makeDom('<input id="q" value="old text">')
  const input = dom.window.document.getElementById('q') as HTMLInputElement
  const events: string[] = []
  input.addEventListener('input', (event) => events.push((event as InputEvent).data ?? ''))
  input.focus()
  const result = callInDom(dom, 'replaceFocusedValue', input, 'dune')
  t.deepEqual(result, { ok: true, value: 'dune' })
  t.is(input.value, 'dune')
  t.deepEqual(events, ['dune'])
})

test('replaceFocusedValue says when the field is a password one as it is typed into, before or after the input', (t) => {
  const dom = makeDom('<input id="pin" type="password"><input id="code">')
  const doc = dom.window.document
  const pin = doc.getElementById('pin') as HTMLInputElement
  pin.focus()
  t.deepEqual(callInDom(dom, 'replaceFocusedValue', pin, '1234'), { ok: true, value: '1234', password: true })
  const code = doc.getElementById('code') as HTMLInputElement
  code.addEventListener('input', () => (code.type = 'password'))
  code.focus()
  t.deepEqual(callInDom(dom, 'replaceFocusedValue', code, '483920'), { ok: true, value: '483920', password: true })
})

test('replaceFocusedValue refuses when another element holds keyboard focus', (t) => {
  const dom = makeDom('<input id="a"><input id="b" value="keep">')
  const doc = dom.window.document
  const target = doc.getElementById('b') as HTMLInputElement
  ;(doc.getElementById('a') as HTMLInputElement).focus()
  const result = callInDom(dom, 'replaceFocusedValue', target, 'new')
  t.false(result.ok)
  t.regex((result as { reason: string }).reason, /does not hold keyboard focus \(input does\)/)
  t.is(target.value, 'keep')
})

test('replaceFocusedValue follows focus into an open shadow root', (t) => {
  const dom = makeDom('<div id="host"></div>')
  const doc = dom.window.document
  const root = doc.getElementById('host')!.attachShadow({ mode: 'open' })
  root.innerHTML = '<input id="inner">'
  const inner = root.getElementById('inner') as HTMLInputElement
  inner.focus()
  t.deepEqual(callInDom(dom, 'replaceFocusedValue', inner, 'a@b.c'), { ok: true, value: 'a@b.c' })
  t.is(inner.value, 'a@b.c')
})

test('replaceFocusedValue refuses an element that takes no text', (t) => {
  const dom = makeDom('<button id="b">Go</button>')
  const button = dom.window.document.getElementById('b') as HTMLButtonElement
  button.focus()
  const result = callInDom(dom, 'replaceFocusedValue', button, 'x')
  t.deepEqual(result, { ok: false, reason: 'a button takes no text' })
})

test('planSubmit clicks submit buttons, presses Enter in fields that submit, else submits the form', (t) => {
  const dom = makeDom(`
    <form id="one"><input id="q" type="search"><button id="go">Go</button></form>
    <form id="two"><input id="a"><input id="b"><select id="s"><option>x</option></select></form>
    <input id="loose">
    <input id="send" type="submit" form="one">`)
  const doc = dom.window.document
  const plan = (id: string) => callInDom(dom, 'planSubmit', doc.getElementById(id))
  t.is(plan('go'), 'click')
  t.is(plan('send'), 'click')
  t.is(plan('q'), 'enter')
  // Two text fields and no submit button: Enter would not submit, so the form is submitted directly.
  t.is(plan('a'), 'request-submit')
  t.is(plan('s'), 'request-submit')
  t.is(plan('loose'), 'enter')
})

test('requestSubmit fires the form submit event the way a user submit does', (t) => {
  const dom = makeDom('<form id="f"><select id="s"><option>x</option></select></form>')
  const doc = dom.window.document
  let submitted = 0
  doc.getElementById('f')!.addEventListener('submit', (event) => {
    event.preventDefault()
    submitted += 1
  })
  t.true(callInDom(dom, 'requestSubmit', doc.getElementById('s')))
  t.is(submitted, 1)
  t.false(callInDom(dom, 'requestSubmit', doc.body))
})

test('findListOption finds an ARIA option by its text, including owned ones', (t) => {
  const dom = makeDom(`
    <div id="list" role="listbox" aria-owns="far"><div role="option">Red</div><div role="option"> Green
      apple </div></div>
    <div id="far" role="option">Blue</div>`)
  const doc = dom.window.document
  const list = doc.getElementById('list')
  t.is(callInDom(dom, 'findListOption', list, 'Green apple')?.textContent?.trim().startsWith('Green'), true)
  t.is(callInDom(dom, 'findListOption', list, 'Blue'), doc.getElementById('far'))
  t.is(callInDom(dom, 'findListOption', list, 'Purple'), null)
})

test('waitForDomQuiet counts mutations, including inside open shadow roots, and resolves once quiet', async (t) => {
  const dom = makeDom('<div id="host"></div><p id="p"></p>')
  const doc = dom.window.document
  const root = doc.getElementById('host')!.attachShadow({ mode: 'open' })
  root.innerHTML = '<span id="s">a</span>'
  const waiting = callInDom(dom, 'waitForDomQuiet', 20, 2_000)
  doc.getElementById('p')!.textContent = 'one'
  root.getElementById('s')!.textContent = 'two'
  // Never observed: there is no observation to stand.
  t.deepEqual(await waiting, { mutations: 2, observationStands: false })
})

test('in a document already observed, waitForDomQuiet counts the quiet from the input, not from its call', async (t) => {
  const dom = makeDom('<p id="p"></p><button>Go</button>')
  const doc = dom.window.document
  const later = (ms: number) => new Promise((resolve) => dom.window.setTimeout(resolve, ms))
  observeDom(dom)
  // The input's own change, 500 ms before the wait starts; the input itself was 550 ms before it.
  doc.getElementById('p')!.textContent = 'clicked'
  await later(500)
  const waiting = callInDom(dom, 'waitForDomQuiet', 600, 5_000, 550)
  // Past the quiet counted from the input (100 ms from now), but well within one counted from the call
  // (600 ms from now); far enough from both that a loaded machine's late timer does not blur them.
  const changing = later(350).then(() => {
    doc.getElementById('p')!.textContent = 'later'
  })
  t.is((await waiting).mutations, 0)
  await changing
})

test('waitForDomQuiet gives up at its bound on a page that never stops changing', async (t) => {
  const dom = makeDom('<p id="p"></p>')
  const doc = dom.window.document
  const change = () => {
    doc.getElementById('p')!.textContent = String(Math.random())
  }
  // A quiet second never comes while the page changes every few milliseconds: only the bound ends the wait.
  const waiting = callInDom(dom, 'waitForDomQuiet', 1_000, 100)
  change()
  const timer = dom.window.setInterval(change, 2)
  const { mutations } = await waiting
  dom.window.clearInterval(timer)
  t.true(mutations >= 1)
})

test('in a document already observed, a region the input made aria-busy holds the wait for quiet until it is no longer busy', async (t) => {
  const dom = makeDom('<ul id="list"></ul><button>Load more</button>')
  const doc = dom.window.document
  const list = doc.getElementById('list')!
  observeDom(dom)
  // The input, 5 ms before the wait: the page marks the list busy and fills it 150 ms later.
  list.setAttribute('aria-busy', 'true')
  dom.window.setTimeout(() => {
    list.innerHTML = '<li>Episode 7</li>'
    list.setAttribute('aria-busy', 'false')
  }, 150)
  const started = performance.now()
  const { mutations } = await callInDom(dom, 'waitForDomQuiet', 20, 2_000, 5)
  t.true(performance.now() - started >= 140, 'not over at the first quiet 20 ms')
  t.is(list.textContent, 'Episode 7')
  t.true(mutations >= 2)
})

test('a region already busy when the page was observed does not hold the wait; one busy past the bound ends it at the bound', async (t) => {
  const dom = makeDom('<p id="ticker"></p><ul id="list"></ul>')
  const doc = dom.window.document
  const later = (ms: number) => new Promise((resolve) => dom.window.setTimeout(resolve, ms))
  observeDom(dom)
  doc.getElementById('ticker')!.setAttribute('aria-busy', 'true')
  await later(20)
  // The observation the input is decided on sees the ticker busy.
  observeDom(dom)
  await later(40)
  let started = performance.now()
  await callInDom(dom, 'waitForDomQuiet', 20, 2_000, 5)
  t.true(performance.now() - started < 1_000, 'the ticker was busy when the page was observed')
  doc.getElementById('list')!.setAttribute('aria-busy', 'true')
  started = performance.now()
  await callInDom(dom, 'waitForDomQuiet', 20, 300, 5)
  t.true(performance.now() - started >= 290, 'held to the bound by the list the input made busy')
})
