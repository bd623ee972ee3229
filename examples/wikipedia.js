// Search Wikipedia for an article, open it, and extract its title and first paragraph.
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

module.exports = async ({ page, browserless }) => {
  agent(page)

  await browserless.goto(page, { url: 'https://en.wikipedia.org/wiki/Main_Page' })
  await goal(page, 'search', 'Search for "Ada Lovelace" and open her article')

  const { data } = succeeded(
    await page.extract('get the article title and its first paragraph that has text', {
      title: { type: 'string' },
      firstParagraph: { type: 'string' },
    }),
  )
  return data
}
