import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { observe } from '../src/collector/observe.ts'
import { takeOutline } from '../src/extract/page-outline.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel } from './helpers/goal-scripted-model.ts'

// A form whose hidden fields are named after the form's own methods and properties (getAttribute,
// localName, parentNode, elements…): each field shadows what it is named after, in our isolated world
// too. One such field made every observation throw and every goal end in error; the agent reads the
// page through the prototypes' own accessors (src/page/dom-safe.ts) and works on it as on any page.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], file = 'index.html'): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`sites/shadowed-form/${file}`))
  return page
}

test('observe offers the form’s field and button by name, in their form, and reads the text inside it', async (t) => {
  const page = await open(t)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  const { elements, text } = snapshot.observation
  t.deepEqual(
    elements.map((element) => [element.role, element.name, element.form?.name]),
    [
      ['textbox', 'Email', 'Newsletter signup'],
      ['button', 'Subscribe', 'Newsletter signup'],
    ],
  )
  t.is(text, 'Newsletter One letter a month, no more. Email Subscribe Unsubscribe at any time.')
})

test('a goal types into the form’s field and clicks its button (freshness check and click path included), then is done', async (t) => {
  const page = await open(t)
  const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Email' }, { operation: 'CLICK', target: 'Subscribe' }, { operation: 'DONE' }])
  const { status, error, trace } = await agent(page).goal('Subscribe a@b.example to the newsletter.', {
    decisions: scripted.model,
    text: textModel('a@b.example'),
    evaluator: evaluatorModel(0.95),
    checklist: false,
  })
  t.is(error, undefined)
  t.is(status, 'success')
  t.like(trace[0], { operation: 'TYPE_TEXT', text: 'a@b.example' })
  t.like(trace[1], { operation: 'CLICK', pageChanged: true })
  t.false(trace.some((entry) => entry.stale))
  t.is(await page.$eval('#note', (note) => note.textContent), 'Subscribed a@b.example.')
})

test('extraction reads the form, its attributes, its text and its fields', async (t) => {
  const page = agent(await open(t))
  const result = await page.extract({
    id: { selector: 'form', attr: 'id' },
    label: { selector: 'form', attr: 'aria-label' },
    text: { selector: 'form', attr: 'text' },
    html: { selector: 'form', attr: 'html' },
    email: { selector: 'form', attr: { name: { selector: 'input[type=email]', attr: 'name' } } },
    hidden: { selectorAll: 'form > input[type=hidden]', attr: 'name' },
  })
  t.is(result.status, 'success', String(result.error))
  const data = result.data as Record<string, unknown>
  t.like(data, { id: 'signup', label: 'Newsletter signup', text: 'One letter a month, no more. Email Subscribe', email: { name: 'email' } })
  t.regex(data.html as string, /^\s*<p>One letter a month, no more\.<\/p>/)
  t.true((data.hidden as string[]).includes('getAttribute'))
  t.is((data.hidden as string[]).length, 46)
})

test('fields that shadow only properties (nothing throws) do not hide that the form is a form, nor hang a walk up from it', async (t) => {
  const page = await open(t, 'properties.html')
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  // The form is the part of the page its heading speaks for: the button after it is near the page's heading.
  t.deepEqual(
    snapshot.observation.elements.map((element) => [element.role, element.name, element.form?.name ?? '', element.nearby]),
    [
      ['textbox', 'Email', 'Newsletter signup', 'Newsletter'],
      ['button', 'Subscribe', 'Newsletter signup', 'Newsletter'],
      ['button', 'Contact us', '', 'Shop'],
    ],
  )
  t.is(snapshot.observation.text, 'Shop Newsletter Email Subscribe Contact us')
})

test('the outline the rule writer reads shows the form and what it holds', async (t) => {
  const { outline } = await takeOutline(await open(t))
  t.is(
    outline,
    [
      '0 body',
      '1 h1 "Newsletter"',
      '1 form#signup.signup[aria-label="Newsletter signup"]',
      '2 p "One letter a month, no more."',
      '2 input[type="hidden"][name="getAttribute"][value="x"]',
      '2 input[type="hidden"][name="hasAttribute"][value="x"]',
      '2 input[type="hidden"][name="getBoundingClientRect"][value="x"]',
      '2 … 43 more input like the ones above',
      '2 label "Email"',
      '3 input[name="email"][type="email"]',
      '2 button[type="submit"] "Subscribe"',
      '1 p "Unsubscribe at any time."',
    ].join('\n'),
  )
})
