// Stagehand 4.4 (a devDependency used only by benchmarks) as the peer measured beside the library:
// its own Chrome, offline, with a model that answers at once, so its `observe()` time is its own work
// on the page (reading the accessibility tree and building the prompt), as ours is measured.

/** A Stagehand session on one Chrome: open a URL, observe it, close. */
export interface StagehandPeer {
  open(url: string): Promise<void>
  /** Runs `observe()` once; returns the length of the prompt it would have sent. */
  observe(): Promise<number>
  close(): Promise<void>
}

const INSTRUCTION = 'find the interactive elements'

/**
 * Starts Stagehand on its own headless Chrome. `from` is a folder with its own
 * `node_modules/@browserbasehq/stagehand` (another version); by default the devDependency is used.
 */
export async function openStagehand(options: { executablePath: string; args: readonly string[]; from?: string; timeoutMs?: number }): Promise<StagehandPeer> {
  const entry = options.from
    ? (await import('node:url')).pathToFileURL(`${options.from}/node_modules/@browserbasehq/stagehand/dist/index.mjs`).href
    : '@browserbasehq/stagehand'
  const { Stagehand, localBrowser } = (await import(entry)) as any
  let prompt = ''
  const instance = await Stagehand.create({
    browser: await localBrowser.launch({ executablePath: options.executablePath, headless: true, args: [...options.args], viewport: { width: 1280, height: 800 } }),
    model: {
      generate: async (params: any) => {
        prompt = params.messages.map((message: any) => [message.content].flat().map((part: any) => part.text ?? '').join('')).join('')
        return { role: 'assistant', outputFormat: 'json_schema', content: [{ type: 'text', text: '{"elements":[]}' }], structuredContent: { elements: [] } }
      },
    },
    logging: { level: 'off' },
  })
  const page = (await instance.browser.context.pages())[0] ?? (await instance.browser.context.newPage())
  return {
    open: async (url) => {
      // A page that never finishes loading is observed as it stands, as ours is.
      await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs ?? 15_000 }).catch(() => undefined)
    },
    observe: async () => {
      prompt = ''
      await instance.observe(INSTRUCTION)
      return prompt.length
    },
    close: async () => {
      await instance.close()
      // Closing the session leaves the launched browser running; this ends it.
      await instance.browser.close()
    },
  }
}
