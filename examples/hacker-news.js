// Open the comments of the first Hacker News story and extract its title, points and comments.
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

module.exports = async ({ page, browserless }) => {
  agent(page)

  await browserless.goto(page, { url: 'https://news.ycombinator.com' })
  await goal(page, 'comments', 'Open the comments page of the first story on the front page.')

  const { data } = succeeded(
    await page.extract('get the story and its comments', {
      title: { type: 'string' },
      points: { type: 'number' },
      comments: { attr: { author: { type: 'string' }, text: { type: 'string' } } },
    }),
  )
  return data
}
