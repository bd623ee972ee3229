import test from 'ava'
import agent from '../src/index.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel } from './helpers/goal-scripted-model.ts'

// Several pages in one window, as a crawler opens them: all but the newest are background tabs, where
// Chrome holds a mouse move for about 5 s. A goal makes its page behave as focused, so it acts at once.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

test('a goal on a background tab makes its page focused and clicks there', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url('sites/news/index.html'))
  // A newer tab in the same window puts the first one in the background.
  const front = await page.browserContext().newPage()
  t.teardown(() => front.close())
  t.false(await page.evaluate(() => document.hasFocus()))
  const result = await agent(page).goal('Open the comments of the first story.', {
    decisions: scriptedModel([{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }]).model,
    text: textModel('unused'),
    checklist: false,
  })
  t.is(result.status, 'success', result.error?.message)
  t.true(page.url().endsWith('/sites/news/comments.html?story=1'))
  t.true(await page.evaluate(() => document.hasFocus()))
})
