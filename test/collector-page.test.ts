import test from 'ava'
import { checkDom, layoutDom, observeDom, OBSERVE, relayout } from './fixtures/collector/jsdom-layout.ts'
import { callInDom } from './helpers/jsdom.ts'
import type { FrameReport } from '../src/page/types.ts'

// The page script on plain markup (jsdom, with a row-per-element layout): names, roles, operations,
// state, caps, text, nearby text, forms, blockers and the freshness check.

function byName(html: string, request = {}) {
  const dom = layoutDom(html)
  const { report, nodes } = observeDom(dom, request)
  const named = new Map(report.elements.map((element) => [element.name, element]))
  return { dom, report, nodes, named }
}

test('accessible names follow labelledby, aria-label, label, alt, content, title, placeholder', (t) => {
  const { report } = byName(`
    <span id="a">From</span><span id="b">labelledby</span>
    <button aria-labelledby="a b" aria-label="ignored">text</button>
    <button aria-label="From aria-label">text</button>
    <label for="f">From label</label><input id="f" title="ignored" placeholder="ignored">
    <label>Wrapping label <input></label>
    <input type="image" alt="From alt" src="x.png">
    <a href="/x"><img alt="Image link"> and text</a>
    <button>  From   <b>content</b> </button>
    <a href="/t" title="From title"></a>
    <input placeholder="From placeholder">
    <input type="submit">
    <button><span aria-hidden="true">★</span><span aria-label="Close"></span></button>
  `)
  t.deepEqual(
    report.elements.map((element) => element.name),
    [
      'From labelledby',
      'From aria-label',
      'From label',
      'Wrapping label',
      'From alt',
      'Image link and text',
      'From content',
      'From title',
      'From placeholder',
      'Submit',
      'Close',
    ],
  )
})

test('long names are clipped', (t) => {
  const { report } = byName(`<a href="/x">${'word '.repeat(60)}</a>`)
  const name = report.elements[0]!.name
  t.is(name.length, 80)
  t.true(name.endsWith('…'))
})

test('roles, input types, operations and state', (t) => {
  const { named } = byName(`
    <a href="/home">Home</a>
    <a>No href</a>
    <button aria-expanded="false">Menu</button>
    <button aria-pressed="true">Bold</button>
    <input aria-label="Query" type="search" value="bmw">
    <input aria-label="Email" type="email">
    <input aria-label="When" type="date">
    <input aria-label="Agree" type="checkbox" checked>
    <input aria-label="Volume" type="range">
    <input type="hidden" name="csrf" value="secret">
    <textarea aria-label="Notes">hello</textarea>
    <select aria-label="Sort"><option value="r">Relevance</option><option value="p" selected>Price</option></select>
    <div contenteditable="true" aria-label="Editor">draft <b contenteditable="true">bold</b></div>
    <details><summary>More</summary>hidden</details>
    <div role="tab" aria-selected="true">Tab one</div>
    <div role="switch" aria-checked="false">Wifi</div>
    <div role="heading">Not a control</div>
  `)
  t.deepEqual([...named.keys()], ['Home', 'Menu', 'Bold', 'Query', 'Email', 'When', 'Agree', 'Volume', 'Notes', 'Sort', 'Editor', 'More', 'Tab one', 'Wifi'])
  t.like(named.get('Home'), { role: 'link', tag: 'a', operations: ['click'] })
  t.like(named.get('Menu'), { role: 'button', state: { expanded: false } })
  t.like(named.get('Bold'), { state: { pressed: true } })
  t.like(named.get('Query'), { role: 'searchbox', type: 'search', value: 'bmw', operations: ['click', 'type', 'submit', 'press'] })
  t.like(named.get('Email'), { role: 'textbox', type: 'email', value: '' })
  t.like(named.get('When'), { operations: ['click', 'type', 'press'] })
  t.like(named.get('Agree'), { role: 'checkbox', state: { checked: true }, operations: ['click'] })
  t.like(named.get('Volume'), { role: 'slider' })
  t.like(named.get('Notes'), { role: 'textbox', tag: 'textarea', value: 'hello', operations: ['click', 'type', 'press'] })
  t.like(named.get('Sort'), { role: 'combobox', value: 'Price', operations: ['select', 'press'] })
  t.deepEqual(named.get('Sort')!.options, [
    { label: 'Relevance', value: 'r', selected: false },
    { label: 'Price', value: 'p', selected: true },
  ])
  t.like(named.get('Editor'), { role: 'textbox', operations: ['click', 'type', 'press'], value: 'draft bold' })
  t.like(named.get('More'), { role: 'button', state: { expanded: false } })
  t.like(named.get('Tab one'), { role: 'tab', state: { selected: true } })
  t.like(named.get('Wifi'), { role: 'switch', state: { checked: false } })
})

test('hidden, disabled, off-screen and covered controls are left out', (t) => {
  const { named } = byName(`
    <button>Shown</button>
    <button style="display:none">Display none</button>
    <div style="display:none"><button>Inside display none</button></div>
    <button style="visibility:hidden">Visibility hidden</button>
    <div style="opacity:0"><button>Transparent parent</button></div>
    <div aria-hidden="true"><button>Aria hidden</button></div>
    <div inert><button>Inert</button></div>
    <button disabled>Disabled</button>
    <button aria-disabled="true">Aria disabled</button>
    <fieldset disabled><input aria-label="In disabled fieldset"></fieldset>
    <button data-rect="0 200000 100 20">Below the viewport</button>
    <button hidden>Hidden attribute</button>
    <button data-rect="0 90000 100 20">Covered</button>
    <div data-rect="0 89990 1000 100">Cover</div>
  `)
  t.deepEqual([...named.keys()], ['Shown'])
})

test('a visually hidden checkbox is offered through its visible label', (t) => {
  const { named, nodes, report } = byName(`
    <input type="checkbox" id="remember" style="opacity:0"><label for="remember">Remember me</label>
  `)
  const element = named.get('Remember me')
  t.like(element, { role: 'checkbox', tag: 'input', type: 'checkbox', state: { checked: false } })
  t.is(nodes[report.elements.indexOf(element!)]!.localName, 'label')
})

test('the element cap keeps the first controls and counts the rest', (t) => {
  const buttons = Array.from({ length: 12 }, (_, i) => `<button>B${i}</button>`).join('')
  const { report } = byName(buttons, { maxElements: 5 })
  t.deepEqual(
    report.elements.map((element) => element.name),
    ['B0', 'B1', 'B2', 'B3', 'B4'],
  )
  t.is(report.omitted, 7)
})

test('viewport text is collapsed, in document order, joined inline runs, and clipped', (t) => {
  const { report } = byName(`<h1>Title</h1><p>Hel<b>lo</b>   world</p><script>var x = 1</script><style>p{}</style>
    <p data-rect="0 300000 10 10">far below</p><table><tr><td>A</td><td>B</td></tr></table>`)
  t.is(report.text, 'Title Hello world A B')
  const long = byName(`<p>${'lorem ipsum '.repeat(100)}</p>`, { textLimit: 100 }).report.text
  t.is(long.length, 100)
  t.true(long.endsWith('…'))
})

test('nearby text tells same-named links apart: list item, row, else the heading before', (t) => {
  const { report } = byName(`
    <h2>Python</h2><ul><li><a href="/py">Quickstart</a></li></ul>
    <h2>Node</h2><ul><li><a href="/node">Quickstart</a></li></ul>
    <ul><li><a href="/go">Quickstart</a> for Go developers</li></ul>
    <table><tr><td>BMW X3</td><td>16.690 €</td><td><button>Buy</button></td></tr></table>
    <fieldset><legend>Size</legend><label><input type="radio" name="s" value="m">M</label></fieldset>
  `)
  t.deepEqual(
    report.elements.map((element) => [element.name, element.nearby]),
    [
      ['Quickstart', 'Python'],
      ['Quickstart', 'Node'],
      ['Quickstart', 'for Go developers'],
      ['Buy', 'BMW X3 16.690 €'],
      ['M', 'Size'],
    ],
  )
})

test('each control lists its form and the other fields, passwords masked', (t) => {
  const { named } = byName(`
    <form name="login">
      <input name="user" aria-label="User" value="ada">
      <input name="pass" type="password" aria-label="Password" value="hunter2">
      <input type="radio" name="plan" value="free" aria-label="Free">
      <input type="radio" name="plan" value="pro" aria-label="Pro" checked>
      <input type="checkbox" name="stay" aria-label="Stay">
      <input type="hidden" name="token" value="t">
      <button>Sign in</button>
    </form>
  `)
  t.deepEqual(named.get('Sign in')!.form, { name: 'login', fields: { user: 'ada', pass: '•••', plan: 'pro', stay: 'unchecked' } })
  t.deepEqual(named.get('User')!.form!.fields, { pass: '•••', plan: 'pro', stay: 'unchecked' })
  t.deepEqual(named.get('Pro')!.form!.fields, { user: 'ada', pass: '•••', stay: 'unchecked' })
  t.is(named.get('Password')!.value, '•••')
  t.false(JSON.stringify(named.get('Password')).includes('hunter2'))
})

test('blockers: password field, file input, large canvas, CAPTCHA text', (t) => {
  const { report } = byName(`
    <p>Please confirm you are human: I'm not a robot</p>
    <input type="password" aria-label="Password">
    <input type="file" aria-label="Upload">
    <canvas data-rect="0 5000 1000 60000"></canvas>
    <canvas data-rect="0 4000 300 150"></canvas>
  `)
  t.deepEqual(
    report.blockers.map((blocker) => blocker.kind),
    ['captcha', 'password', 'file_input', 'canvas'],
  )
  t.regex(report.blockers[0]!.text!, /not a robot/)
  t.deepEqual(report.blockers[3]!.rect, { x: 0, y: 5000, width: 1000, height: 60000 })
})

test('open shadow roots: controls inside are observed and slotted text names its control', (t) => {
  const dom = layoutDom(`<my-button>Slotted label</my-button><other-widget></other-widget>`)
  const { document } = dom.window
  const host = document.querySelector('my-button')!
  host.attachShadow({ mode: 'open' }).innerHTML = '<button><slot></slot></button>'
  document.querySelector('other-widget')!.attachShadow({ mode: 'open' }).innerHTML = '<h3>Widget</h3><a href="/in-shadow">Inner link</a>'
  relayout(dom)
  const { report } = observeDom(dom)
  t.deepEqual(
    report.elements.map((element) => [element.name, element.nearby ?? '']),
    [
      ['Slotted label', ''],
      ['Inner link', 'Widget'],
    ],
  )
})

test('node IDs stay with their nodes across observations; new nodes get new IDs', (t) => {
  const dom = layoutDom(`<ul id="list"><li><a href="/1">One</a></li><li><a href="/2">Two</a></li></ul>`)
  const first = observeDom(dom).report.elements.map((element) => element.nodeId)
  const list = dom.window.document.getElementById('list')!
  list.lastElementChild!.outerHTML = '<li><a href="/2">Two</a></li>'
  list.insertAdjacentHTML('afterbegin', '<li><a href="/0">Zero</a></li>')
  relayout(dom)
  const second = observeDom(dom, { docToken: 'd9' }).report.elements
  t.deepEqual(second.map((element) => element.name), ['Zero', 'One', 'Two'])
  t.is(second[1]!.nodeId, first[0])
  t.notDeepEqual(second[2]!.nodeId, first[1])
  t.notDeepEqual(second[0]!.nodeId, first[0])
  t.true(second.every((element) => element.nodeId.startsWith('d1:')), 'the document keeps its first token')
})

test('the nodes Node does not hold wait under the report\'s key, are given once, and only the last four reports\' are kept', (t) => {
  const dom = layoutDom('<button>A</button><button>B</button><a href="/c">C</a>')
  const all = observeDom(dom, { sendKey: 'first' })
  t.deepEqual(all.nodes.map((node) => node.textContent), ['A', 'B', 'C'])
  t.deepEqual(callInDom(dom, 'takeSentNodes', 'first'), [], 'given once')
  const [a, b] = all.report.elements
  // Held nodes are marked in the report and not kept again.
  const json = callInDom(dom, 'observe', { ...OBSERVE, held: [a!.nodeId, b!.nodeId], sendKey: 'second' })
  const report = JSON.parse(json) as FrameReport
  t.deepEqual(report.elements.map((element) => element.held === true), [true, true, false])
  t.deepEqual(callInDom(dom, 'takeSentNodes', 'second').map((node) => node.textContent), ['C'])
  for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) callInDom(dom, 'observe', { ...OBSERVE, sendKey: key })
  t.deepEqual(callInDom(dom, 'takeSentNodes', 'k1'), [], 'the oldest went once a fifth came')
  t.is(callInDom(dom, 'takeSentNodes', 'k2').length, 3)
  t.is(callInDom(dom, 'takeSentNodes', 'k5').length, 3)
})

test('the freshness check recomputes the same fingerprint and names what changed', (t) => {
  const html = `
    <form name="f"><input name="q" aria-label="Query" value="bmw"><input name="max" aria-label="Max" value="20000">
    <button>Search</button></form>
    <ul><li><a href="/a">Offer</a> 100 €</li></ul>
    <p id="elsewhere">Unrelated</p>
    <button id="toggle" aria-pressed="false">Toggle</button>
  `
  const fresh = () => {
    const dom = layoutDom(html)
    const { report, nodes } = observeDom(dom)
    const find = (name: string) => {
      const index = report.elements.findIndex((element) => element.name === name)
      return { element: report.elements[index]!, node: nodes[index]! }
    }
    const check = (name: string) => {
      const { element, node } = find(name)
      return checkDom(dom, node, { nodeId: element.nodeId, fingerprint: element.fingerprint }).reason
    }
    return { dom, document: dom.window.document, check, find }
  }

  let page = fresh()
  t.is(page.check('Query'), null)
  page.document.getElementById('elsewhere')!.textContent = 'Changed elsewhere'
  t.is(page.check('Query'), null, 'changes outside the target context are tolerated')

  page = fresh()
  ;(page.find('Query').node as HTMLInputElement).value = 'audi'
  t.is(page.check('Query'), 'value changed')
  t.is(page.check('Search'), 'form values changed')
  t.is(page.check('Max'), 'form values changed')

  page = fresh()
  page.document.querySelector('li')!.lastChild!.textContent = ' 90 €'
  t.is(page.check('Offer'), 'nearby text changed')

  page = fresh()
  page.find('Toggle').node.setAttribute('aria-pressed', 'true')
  t.is(page.check('Toggle'), 'state changed')

  page = fresh()
  page.find('Toggle').node.textContent = 'Toggled'
  t.is(page.check('Toggle'), 'name changed')

  page = fresh()
  page.find('Offer').node.setAttribute('href', '/b')
  t.is(page.check('Offer'), 'attributes changed')

  page = fresh()
  ;(page.find('Toggle').node as HTMLElement).style.display = 'none'
  t.is(page.check('Toggle'), 'hidden')

  page = fresh()
  page.find('Toggle').node.setAttribute('disabled', '')
  t.is(page.check('Toggle'), 'disabled')

  page = fresh()
  const { node, element } = page.find('Offer')
  node.remove()
  t.is(checkDom(page.dom, node, { nodeId: element.nodeId, fingerprint: element.fingerprint }).reason, 'detached')

  page = fresh()
  const other = page.find('Offer')
  t.is(checkDom(page.dom, other.node, { nodeId: 'd7:1', fingerprint: other.element.fingerprint }).reason, 'document changed')
})

test('the focus check follows shadow roots', (t) => {
  const dom = layoutDom(`<x-field></x-field><button>Other</button>`)
  const { document } = dom.window
  document.querySelector('x-field')!.attachShadow({ mode: 'open' }).innerHTML = '<input aria-label="Inner">'
  relayout(dom)
  const { report, nodes } = observeDom(dom)
  const index = report.elements.findIndex((element) => element.name === 'Inner')
  const element = report.elements[index]!
  const node = nodes[index] as HTMLInputElement
  const check = () => checkDom(dom, node, { nodeId: element.nodeId, fingerprint: element.fingerprint, focused: true }).reason
  ;(nodes[1] as HTMLElement).focus()
  t.is(check(), 'not focused')
  node.focus()
  t.is(check(), null)
})
