import test from 'ava'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { launchChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { BIN, runCli as cli } from './helpers/run-cli.ts'

// The built CLI, run as users run it: a child process on this Node, with its own Chrome.
const FIXTURES = 'test/fixtures/cli'



/** Puppeteer starts Chrome detached, as the leader of its own process group: any member left means a leak. */
function processGroupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // fields[0] is the state, fields[2] the process group; a zombie is already dead.
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true
    } catch {
      // The process ended while we read it.
    }
  }
  return false
}

async function groupEnds(pgid: number): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if (!processGroupAlive(pgid)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

/** A loopback port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

function chromePid(stderr: string): number {
  const match = /chrome-pid=(\d+)/.exec(stderr)
  if (!match) throw new Error(`The script did not report its Chrome: ${stderr}`)
  return Number(match[1])
}

let server: FixtureServer
test.before(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npx tsc first (npm test does).`)
  server = await serveFixtures()
})
test.after.always(async () => {
  await server?.close()
})

test.serial('--help prints the usage and exits 0', async (t) => {
  const run = await cli(['--help'])
  t.is(run.code, 0)
  t.regex(run.stdout, /Usage: puppeteer-agent exec <file> \[flags\]/)
})

test.serial('bad usage exits 2 with the reason and launches nothing', async (t) => {
  const none = await cli([])
  t.is(none.code, 2)
  t.regex(none.stderr, /No command given/)
  const noFile = await cli(['exec'])
  t.is(noFile.code, 2)
  t.regex(noFile.stderr, /exec needs a script file/)
  const unknown = await cli(['exec', 'missing/script.js'])
  t.is(unknown.code, 2)
  t.regex(unknown.stderr, /No script file at .*missing\/script\.js/)
  const command = await cli(['run', 'x.js'])
  t.is(command.code, 2)
  t.regex(command.stderr, /Unknown command "run"/)
  const noFunction = await cli(['exec', `${FIXTURES}/commonjs/no-function.js`])
  t.is(noFunction.code, 2)
  t.regex(noFunction.stderr, /must export a function.*it exports/)
  const endpoint = await cli(['exec', `${FIXTURES}/esm.mjs`, '--ws-endpoint=http://127.0.0.1:9222'])
  t.is(endpoint.code, 2)
  t.regex(endpoint.stderr, /--ws-endpoint must be a ws:\/\/ or wss:\/\/ URL/)
})

test.serial('a CHROME_PATH that points nowhere exits 2 with the fix', async (t) => {
  const run = await cli(['exec', `${FIXTURES}/esm.mjs`], { env: { CHROME_PATH: '/nowhere/chrome' } })
  t.is(run.code, 2)
  t.regex(run.stderr, /CHROME_PATH is "\/nowhere\/chrome", but there is no file there\. No Chrome or Chromium was found\. Set CHROME_PATH/)
})

test.serial('a --ws-endpoint with no browser behind it exits 2, naming the endpoint and the cause', async (t) => {
  const endpoint = `ws://127.0.0.1:${await closedPort()}/devtools/browser/gone`
  const run = await cli(['exec', `${FIXTURES}/esm.mjs`, `--ws-endpoint=${endpoint}`])
  t.is(run.code, 2, run.stderr)
  t.is(run.stderr, `puppeteer-agent: Cannot connect to the browser at ${endpoint}: connect ECONNREFUSED ${new URL(endpoint).host}. Check that it is running and that this is its WebSocket endpoint.\n`)
})

test.serial('the offline demo (npm start) searches the bundled shop, opens a result and extracts it with the local models', async (t) => {
  const run = await cli(['exec', 'examples/demo.js'])
  t.is(run.code, 0, run.stderr)
  const data = JSON.parse(run.stdout)
  t.like(data, { name: 'Trail Runner Pro', price: 89.9, specs: [{ name: 'Weight', value: '280 g' }], reviews: [{ author: 'Ana', rating: 5 }] })
  t.regex(data.url, /^http:\/\/127\.0\.0\.1:\d+\/product\/trail-runner-pro$/)
  const [notice, summary] = run.stderr.trim().split('\n')
  t.regex(notice!, /^No AI_GATEWAY_API_KEY: using the offline local models/)
  t.regex(summary!, /^goal success in 3 steps \(TYPE_TEXT "Search products" > SUBMIT "Search products" > CLICK "Trail Runner Pro" > DONE\) · judged met \(p=0\.\d\d\) · \d+ model calls · [\d.]+ s · extracted 3 specs and 2 reviews$/)
})

test.serial('runs a browserless exec script unchanged: CommonJS, @browserless/agent, browserless.goto, argv', async (t) => {
  const url = server.url('/cli/pages/hello.html')
  const run = await cli(['exec', `${FIXTURES}/commonjs/browserless.js`, `--url=${url}`, '--limit=3', '--no-color', 'extra'])
  t.is(run.code, 0, run.stderr)
  t.deepEqual(JSON.parse(run.stdout), {
    title: 'Hello from the fixture',
    heading: 'Fixture heading',
    argv: { _: ['extra'], url, limit: 3, color: false },
    navigationError: null,
  })
})

test.serial('runs an ESM script with a default export', async (t) => {
  const run = await cli(['exec', `${FIXTURES}/esm.mjs`, `--url=${server.url('/cli/pages/hello.html')}`])
  t.is(run.code, 0, run.stderr)
  t.deepEqual(JSON.parse(run.stdout), { module: 'esm', heading: 'Fixture heading', hasExtract: 'function' })
})

test.serial('a script that returns nothing prints nothing and exits 0', async (t) => {
  const run = await cli(['exec', `${FIXTURES}/commonjs/returns-nothing.js`])
  t.is(run.code, 0, run.stderr)
  t.is(run.stdout, '')
})

test.serial('a slow or failed load does not throw: the script goes on and the user is told', async (t) => {
  const url = `http://127.0.0.1:${await closedPort()}/`
  const run = await cli(['exec', `${FIXTURES}/commonjs/browserless.js`, `--url=${url}`])
  t.is(run.code, 0, run.stderr)
  t.regex(JSON.parse(run.stdout).navigationError, /ERR_CONNECTION_REFUSED/)
  t.true(run.stderr.includes(`Loading ${url} did not finish (net::ERR_CONNECTION_REFUSED`), run.stderr)
  t.regex(run.stderr, /going on with what loaded/)
})

test.serial('a script that throws exits 1 with its message, no stack, and its browser closed', async (t) => {
  const run = await cli(['exec', `${FIXTURES}/commonjs/throws.js`])
  t.is(run.code, 1)
  t.regex(run.stderr, /^The checkout page never appeared\.$/m)
  t.notRegex(run.stderr, /\n\s+at /)
  t.true(await groupEnds(chromePid(run.stderr)))
})

test.serial('a bug in the script shows its stack', async (t) => {
  const run = await cli(['exec', `${FIXTURES}/commonjs/bug.js`])
  t.is(run.code, 1)
  t.regex(run.stderr, /TypeError: page\.notAMethod is not a function\n\s+at .*bug\.js/)
})

test.serial('Ctrl-C (SIGINT) closes the browser and exits 130', async (t) => {
  let sent = false
  const run = await cli(['exec', `${FIXTURES}/commonjs/hangs.js`], {
    onStderr: (stderr, child) => {
      if (!sent && stderr.includes('chrome-pid=')) {
        sent = true
        child.kill('SIGINT')
      }
    },
  })
  t.is(run.code, 130)
  t.regex(run.stderr, /Received SIGINT: closing the browser/)
  t.true(await groupEnds(chromePid(run.stderr)))
})

test.serial('--ws-endpoint connects to a running Chrome, and leaves it running', async (t) => {
  const browser = await launchChrome()
  t.teardown(() => browser.close())
  const pagesBefore = (await browser.pages()).length
  const run = await cli(['exec', `${FIXTURES}/commonjs/remote.js`, `--ws-endpoint=${browser.wsEndpoint()}`, `--url=${server.url('/cli/pages/hello.html')}`])
  t.is(run.code, 0, run.stderr)
  t.deepEqual(JSON.parse(run.stdout), { wsEndpoint: browser.wsEndpoint(), launched: false, title: 'Hello from the fixture' })
  t.true(browser.connected)
  t.is((await browser.pages()).length, pagesBefore)
})

test.serial('BROWSER_WS_ENDPOINT works like --ws-endpoint', async (t) => {
  const browser = await launchChrome()
  t.teardown(() => browser.close())
  const run = await cli(['exec', `${FIXTURES}/commonjs/remote.js`, `--url=${server.url('/cli/pages/hello.html')}`], {
    env: { BROWSER_WS_ENDPOINT: browser.wsEndpoint() },
  })
  t.is(run.code, 0, run.stderr)
  t.is(JSON.parse(run.stdout).wsEndpoint, browser.wsEndpoint())
})
