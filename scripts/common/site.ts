import { createRequire } from 'node:module'

// `--url=demo` serves the bundled demo shop (examples/site) on 127.0.0.1, the same site `npm start` uses.

export const DEMO_URL = 'demo'
/** The demo's own goal (examples/demo.js), used when `--url=demo` comes without `--goal`. */
export const DEMO_GOAL = 'Search for "trail shoes" and open the first result'

export interface Site {
  url: string
  /** The goal to run when none was given: only the demo has one. */
  goal?: string
  close(): Promise<void>
}

interface DemoServer {
  startSite(): Promise<{ url: string; close(): Promise<void> }>
}

export async function openSite(url: string): Promise<Site> {
  if (url !== DEMO_URL) return { url, close: async () => {} }
  // examples/ is CommonJS (the format of exec scripts), so it is loaded with require.
  const require = createRequire(import.meta.url)
  const { startSite } = require('../../examples/site/server.js') as DemoServer
  const site = await startSite()
  return { url: site.url, goal: DEMO_GOAL, close: () => site.close() }
}
