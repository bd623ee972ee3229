import test from 'ava'
import { layoutDom, observeDom } from './fixtures/collector/jsdom-layout.ts'

// Fields the markup leaves unnamed are named from the layout, as a person reads them, and say so;
// textareas and editable regions are multi-line fields; the state and values a person reads.

function offered(html: string) {
  const { report } = observeDom(layoutDom(html), {})
  return report.elements
}

test('a field with no label is named by the cell to its left, its dt, the text before it, or its group heading', (t) => {
  const elements = offered(`
    <table><tr><td>Genre</td><td><input name="g"></td></tr><tr><th>Year:</th><td><select><option>2024</option></select></td></tr></table>
    <dl><dt>Director</dt><dd><input></dd></dl>
    <p>Budget: <input type="number"></p>
    <div><h4>Notes for the crew</h4><textarea></textarea></div>
    <p><input type="checkbox"> Subtitles</p>
    <label>Labelled <input></label>
  `)
  t.deepEqual(
    elements.map((element) => [element.name, element.nameFrom ?? null]),
    [
      ['Genre', 'layout'],
      ['Year', 'layout'],
      ['Director', 'layout'],
      ['Budget', 'layout'],
      ['Notes for the crew', 'layout'],
      ['Subtitles', 'layout'],
      ['Labelled', null],
    ],
  )
})

test('a column header names the fields of a table whose rows have no label cell', (t) => {
  const elements = offered(`<table><thead><tr><th>Title</th><th>Rating</th></tr></thead><tbody><tr><td><input></td><td><input></td></tr></tbody></table>`)
  t.deepEqual(elements.map((element) => element.name), ['Title', 'Rating'])
})

test('prose before a field is not its name, and a group of several fields names none of them', (t) => {
  const elements = offered(`
    <p>Please tell us in a few words what you thought of the film and why you liked it <input></p>
    <div><h4>Address</h4><input><input></div>
  `)
  t.deepEqual(elements.map((element) => element.name), ['', '', ''])
  t.true(elements.every((element) => element.nameFrom === undefined))
})

test('a textarea and an editable region are multi-line fields, their values read as they are; a long one is kept in part, saying how much was left out', (t) => {
  const paragraph = 'The engine arrived on Tuesday. '.repeat(12).trim()
  const long = 'x'.repeat(5_000)
  const elements = offered(`
    <textarea aria-label="Review">${paragraph}</textarea>
    <textarea aria-label="Log">${long}</textarea>
    <div contenteditable="true" aria-label="Body">Dear Ada,</div>
    <input aria-label="Title" value="Short">
  `)
  const [review, log, body, title] = elements
  t.like(review, { role: 'textbox', multiline: true, value: paragraph })
  t.like(log, { value: 'x'.repeat(4_000), valueOmitted: { before: 0, after: 1_000 } })
  t.like(body, { role: 'textbox', multiline: true, value: 'Dear Ada,' })
  t.is(title!.multiline, undefined)
})

test('the state a person reads: pressed, selected, expanded, current, checked, and the selected set of a multi-select', (t) => {
  const elements = offered(`
    <nav><a href="/home" aria-current="page">Home</a><a href="/about" aria-current="false">About</a></nav>
    <button aria-pressed="true">Bold</button>
    <div role="checkbox" aria-checked="true" tabindex="0">Notify me</div>
    <select multiple aria-label="Cities"><option selected>Oslo</option><option>Rome</option><option selected>Lima</option></select>
    <div role="listbox" aria-multiselectable="true" aria-label="Tags" tabindex="0"><div role="option" aria-selected="true">red</div><div role="option" aria-selected="false">blue</div></div>
  `)
  const named = new Map(elements.map((element) => [element.name, element]))
  t.deepEqual(named.get('Home')!.state, { current: 'page' })
  t.is(named.get('About')!.state, undefined)
  t.deepEqual(named.get('Bold')!.state, { pressed: true })
  t.deepEqual(named.get('Notify me')!.state, { checked: true })
  t.like(named.get('Cities'), { role: 'listbox', value: 'Oslo, Lima', state: { multiple: true } })
  t.like(named.get('red'), { role: 'option', state: { selected: true } })
  t.like(named.get('blue'), { role: 'option', state: { selected: false } })
})

test('a column header says how the table is sorted by it, on the header or on its sort button; options say their group', (t) => {
  const elements = offered(`
    <table><thead><tr>
      <th aria-sort="descending"><button>Price</button></th>
      <th aria-sort="none"><button>Name</button></th>
      <th role="columnheader" aria-sort="ascending" tabindex="0" onclick="">Rating</th>
    </tr></thead><tbody><tr><td>£229</td><td>Aero 13</td><td>4.5</td></tr></tbody></table>
    <select aria-label="Time zone"><optgroup label="Asia"><option>(GMT+05:30) India Standard Time - Kolkata, Chennai</option><option>(GMT+09:00) Tokyo</option></optgroup><option>UTC</option></select>
  `)
  const named = new Map(elements.map((element) => [element.name, element]))
  t.deepEqual(named.get('Price')!.state, { sort: 'descending' })
  t.is(named.get('Name')!.state, undefined, 'aria-sort="none" says nothing')
  t.deepEqual(named.get('Rating')!.state, { sort: 'ascending' })
  t.deepEqual(named.get('Time zone')!.options!.map((option) => [option.label, option.group]), [
    ['(GMT+05:30) India Standard Time - Kolkata, Chennai', 'Asia'],
    ['(GMT+09:00) Tokyo', 'Asia'],
    ['UTC', undefined],
  ])
})

test('a toolbar between a heading and an editor is read past: the heading names the editor', (t) => {
  const elements = offered(`
    <h3>What did you expect to happen?</h3>
    <div class="bar"><button>B</button><button>I</button></div>
    <div contenteditable="true"></div>
  `)
  t.deepEqual(elements.at(-1)!.name, 'What did you expect to happen?')
  t.is(elements.at(-1)!.nameFrom, 'layout')
})

test('a label over a hint names the control beside both; a label above a stepper names its field, past the stepper glyphs', (t) => {
  const elements = offered(`
    <div class="row"><div><div>Dark mode</div><div>Use a dark colour scheme across the whole of the app</div></div><div role="switch" aria-checked="false" tabindex="0"></div></div>
    <div><div>Quantity</div><div><span>−</span><input value="1"><span>+</span></div></div>
  `)
  t.deepEqual(
    elements.map((element) => [element.name, element.nameFrom ?? null]),
    [
      ['Dark mode', 'layout'],
      ['Quantity', 'layout'],
    ],
  )
})
