import test from 'ava'
import { UsageError } from '../src/errors.ts'
import { pageBlock } from '../src/goal/page-blockers.ts'
import { parseOptions } from '../src/options.ts'
import { fillPlaceholders, listPlaceholders, parseSecrets } from '../src/secrets/placeholders.ts'
import { scrubberOf, scrubError, scrubObservation } from '../src/secrets/scrub.ts'
import { clip } from '../src/clip.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// The `secrets` option's pure parts: names checked without ever printing a value, placeholders filled
// only where a known name is written, and every string of an observation scrubbed of the values.

const PASSWORD = 's3cr3t pa$$&word'
const secrets = parseSecrets({ username: 'ada@example.org', password: PASSWORD })
const scrub = scrubberOf(secrets)

test('parses names to values, keeping the caller’s order, each with its placeholder', (t) => {
  t.deepEqual(secrets, [
    { name: 'username', value: 'ada@example.org', placeholder: '%username%' },
    { name: 'password', value: PASSWORD, placeholder: '%password%' },
  ])
  t.deepEqual(listPlaceholders(secrets), ['%username%', '%password%'])
  t.deepEqual(parseSecrets({}), [])
  t.is(parseSecrets({ ['a'.repeat(40)]: 'x' })[0]!.placeholder, `%${'a'.repeat(40)}%`)
  t.is(parseSecrets({ 'api_key-2': 'x' })[0]!.name, 'api_key-2')
})

const refused: [string, unknown, RegExp][] = [
  ['a name starting with a digit', { '1pass': 'hunter2' }, /secret name "1pass" is not a placeholder name/],
  ['a name with a space', { 'my pass': 'hunter2' }, /secret name "my pass" is not a placeholder name/],
  ['a name of 41 characters', { ['a'.repeat(41)]: 'hunter2' }, /secret name "a{41}" is not a placeholder name/],
  ['a name with percent signs', { '%pass%': 'hunter2' }, /secret name "%pass%"/],
  ['an empty value', { password: '' }, /value of secret "password" is empty/],
  ['a blank value', { password: ' \t ' }, /value of secret "password" is empty or only whitespace/],
  ['a number', { pin: 1234 }, /value of secret "pin" must be a string, got a number/],
  ['an array', ['hunter2'], /expected an object of placeholder names to secret values/],
  ['a string', 'hunter2', /expected an object/],
]

for (const [what, value, message] of refused) {
  test(`refuses ${what} with a UsageError that names the key and never the value`, (t) => {
    const error = t.throws(() => parseOptions({ secrets: value }, 'goal options'), { instanceOf: UsageError })
    t.regex(error!.message, /^Invalid option "secrets" in goal options: /)
    t.regex(error!.message, message)
    t.false(error!.message.includes('hunter2'), error!.message)
    t.false(error!.message.includes('1234'), error!.message)
  })
}

test('a bad key after a good one is named, and the good one’s value is not shown either', (t) => {
  const error = t.throws(() => parseOptions({ secrets: { password: 'hunter2', 'bad key': 'x' } }))
  t.regex(error!.message, /"bad key"/)
  t.false(error!.message.includes('hunter2'))
})

test('fills the placeholders of known secrets, wherever they are in the text', (t) => {
  t.is(fillPlaceholders('%password%', secrets), PASSWORD)
  t.is(fillPlaceholders('user %username%, pass %password%.', secrets), `user ada@example.org, pass ${PASSWORD}.`)
  t.is(fillPlaceholders('%username%%password%', secrets), `ada@example.org${PASSWORD}`)
})

test('an unknown placeholder is typed as written: it is not a secret', (t) => {
  t.is(fillPlaceholders('%nope%', secrets), '%nope%')
  t.is(fillPlaceholders('50% off, %Password%', secrets), '50% off, %Password%')
  t.is(fillPlaceholders('%password%', []), '%password%')
})

test('scrubs a value as typed, percent-encoded, form-encoded and in any case', (t) => {
  t.is(scrub(`Welcome, ada@example.org!`), 'Welcome, %username%!')
  t.is(scrub('Welcome, ADA@EXAMPLE.ORG'), 'Welcome, %username%')
  t.is(scrub('https://x.test/?u=ada%40example.org&p=s3cr3t+pa%24%24%26word'), 'https://x.test/?u=%username%&p=%password%')
  t.is(scrub('https://x.test/s3cr3t%20pa%24%24%26word'), 'https://x.test/%password%')
  t.is(scrubberOf(parseSecrets({ path: 'a/b' }))('https://x.test/?next=a%2fb'), 'https://x.test/?next=%path%', 'lower-case hex digits')
  t.is(scrubberOf(parseSecrets({ phrase: 'correct   horse\n' }))('said "correct horse"'), 'said "%phrase%"', 'as page text shows it: whitespace collapsed')
  t.is(scrub('nothing secret'), 'nothing secret')
})

test('a value inside another is replaced only where the longer one is not', (t) => {
  const nested = scrubberOf(parseSecrets({ short: 'pass', long: 'pass123' }))
  t.is(nested('pass123 and pass'), '%long% and %short%')
})

test('scrubbing twice changes nothing more, even when a value is part of a placeholder', (t) => {
  const overlapping = scrubberOf(parseSecrets({ username: 'user' }))
  const once = overlapping('user is username')
  t.is(once, '%username% is %username%name')
  t.is(overlapping(once), once)
})

test('the cut-off start of a value before a clip mark is replaced too', (t) => {
  const text = clip(`Welcome back, your password is ${PASSWORD} and more ${'x'.repeat(40)}`, 61)
  t.true(text.includes('s3c'), text)
  const scrubbed = scrub(text)
  t.false(scrubbed.includes('s3c'), scrubbed)
  t.regex(scrubbed, /your password is %password%… \(\d+ characters\)$/)
  t.is(scrub('Welcome, ada@exam…'), 'Welcome, %username%…', 'a name the page script cut with a bare mark')
  const short = clip(`${'y'.repeat(40)} s3${'z'.repeat(40)}`, 60)
  t.true(short.startsWith(`${'y'.repeat(40)} s3…`), short)
  t.is(scrub(short), short, 'a start of two characters is left as it is')
})

test('a part of a long value cut in the middle of a secret has the cut-off end or start replaced too', (t) => {
  const value = `notes: ${PASSWORD} and the rest`
  const part = value.slice(10)
  t.true(part.includes('r3t pa$$'), part)
  t.is(scrub.part(part, { before: 10, after: 0 }), '%password% and the rest')
  t.is(scrub(part), part, 'a whole text is not taken for a part')
  const short = value.slice(21)
  t.is(scrub.part(short, { before: 21, after: 0 }), short, 'an end of two characters is left as it is')
  const head = value.slice(0, 15)
  t.is(scrub.part(head, { before: 0, after: value.length - 15 }), 'notes: %password%')
})

test('an observed field kept as a part of its value is scrubbed at the edges it was cut at', (t) => {
  const value = `${PASSWORD.slice(4)}\n${'x'.repeat(20)}\n${PASSWORD.slice(0, 6)}`
  const observation = pageObservation({
    url: 'https://x.test/',
    elements: [observedElement('e1', { role: 'textbox', tag: 'textarea', name: 'Notes', value, valueOmitted: { before: 500, after: 500 } })],
  })
  const scrubbed = scrubObservation(observation, scrub).elements[0]!
  t.is(scrubbed.value, `%password%\n${'x'.repeat(20)}\n%password%`)
  t.deepEqual(scrubbed.valueOmitted, { before: 500, after: 500 })
})

test('without secrets the scrub is the identity', (t) => {
  t.is(scrubberOf([])('ada@example.org'), 'ada@example.org')
})

test('every string of an observation is scrubbed; identifiers, hashes and kinds are not', (t) => {
  const typed = scrubberOf(parseSecrets({ password: 'password', username: 'e1' }))
  const observation = pageObservation({
    url: 'https://x.test/?password=password',
    title: 'Hello password',
    text: 'You typed password',
    omittedNames: ['password ×2'],
    elements: [
      observedElement('e1', {
        nodeId: 'password',
        fingerprint: 'password.e1',
        role: 'textbox',
        tag: 'input',
        type: 'password',
        name: 'Password',
        value: 'password',
        nearby: 'Enter password',
        state: { current: 'password' },
        form: { name: 'login password', fields: { password: 'password', e1: 'e1' } },
        options: [{ id: 'o1', label: 'password', value: 'password', selected: false }],
      }),
    ],
    blockers: [{ kind: 'password', frame: 0, text: 'password', rect: { x: 0, y: 0, width: 1, height: 1 } }],
    scroll: [{ id: 'page', name: 'password list', up: false, down: true }],
    frames: [{ url: 'https://x.test/password', crossOrigin: false }],
    popups: ['https://x.test/?p=password'],
    signature: 'password',
  })
  const scrubbed = scrubObservation(observation, typed)
  const element = scrubbed.elements[0]!
  t.like(scrubbed, {
    url: 'https://x.test/?%password%=%password%',
    title: 'Hello %password%',
    text: 'You typed %password%',
    omittedNames: ['%password% ×2'],
    popups: ['https://x.test/?p=%password%'],
    signature: 'password',
  })
  t.like(element, { id: 'e1', nodeId: 'password', fingerprint: 'password.e1', type: 'password', name: '%password%', value: '%password%' })
  t.is(element.nearby, 'Enter %password%')
  t.deepEqual(element.state, { current: '%password%' })
  t.deepEqual(element.form, { name: 'login %password%', fields: { '%password%': '%password%', '%username%': '%username%' } })
  t.deepEqual(element.options, [{ id: 'o1', label: '%password%', value: '%password%', selected: false }])
  t.like(scrubbed.blockers[0], { kind: 'password', text: '%password%' })
  t.like(scrubbed.scroll[0], { id: 'page', name: '%password% list' })
  t.is(scrubbed.frames[0]!.url, 'https://x.test/%password%')
  t.is(observation.text, 'You typed password', 'the observation given is left as it was')
})

test('an error’s message, stack and causes are scrubbed in place', (t) => {
  const cause = new Error(`frame https://x.test/?p=${encodeURIComponent(PASSWORD)} failed`)
  const error = new Error('Evaluation failed: ada@example.org', { cause })
  t.is(scrubError(error, scrub), error)
  t.is(error.message, 'Evaluation failed: %username%')
  t.false(error.stack!.includes('ada@example.org'))
  t.is(cause.message, 'frame https://x.test/?p=%password% failed')
})

test('a password field stops the run as a login wall only without secrets', (t) => {
  const rect = { x: 0, y: 0, width: 1, height: 1 }
  const login = pageObservation({ url: 'https://x.test/', blockers: [{ kind: 'password', frame: 0, rect }] })
  t.is(pageBlock(login)?.reason, 'login_wall')
  t.is(pageBlock(login, { canLogIn: false })?.reason, 'login_wall')
  t.is(pageBlock(login, { canLogIn: true }), undefined)
  const verify = pageObservation({ url: 'https://x.test/', blockers: [{ kind: 'password', frame: 0, rect }, { kind: 'captcha', frame: 0, rect }] })
  t.is(pageBlock(verify, { canLogIn: true })?.reason, 'captcha', 'secrets let a login through, nothing else')
})
