import type { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestFn } from 'ava'

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url))

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

export type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>

export interface FixtureServer {
  origin: string
  url(path: string): string
  close(): Promise<void>
}

/**
 * Serves `test/fixtures/` (or `root`, a folder of another checkout's fixtures) on a loopback port.
 * `host` picks the name in the URLs: serve one server as 127.0.0.1 and one as localhost to get two
 * origins. `routes` answer first (return true when handled).
 */
export async function serveFixtures(options: { host?: '127.0.0.1' | 'localhost'; routes?: Route[]; root?: string } = {}): Promise<FixtureServer> {
  const host = options.host ?? '127.0.0.1'
  const root = options.root ? join(options.root, sep) : FIXTURES
  const server: Server = createServer(async (req, res) => {
    try {
      for (const route of options.routes ?? []) if (await route(req, res)) return
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path))
      if (!file.startsWith(root)) return void res.writeHead(403).end()
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
      res.end(body)
    } catch {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const origin = `http://${host}:${port}`
  return {
    origin,
    url: (path) => new URL(path, `${origin}/`).href,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Two fixture servers for a test file, started before its first test and closed after its last:
 * `site` on 127.0.0.1 and `other` on localhost, a second origin for cross-origin frames.
 */
export function useFixtureServers(test: TestFn): { readonly site: FixtureServer; readonly other: FixtureServer } {
  let site: FixtureServer | undefined
  let other: FixtureServer | undefined
  test.before(async () => {
    site = await serveFixtures()
    other = await serveFixtures({ host: 'localhost' })
  })
  test.after.always(async () => {
    await site?.close()
    await other?.close()
  })
  const started = (server: FixtureServer | undefined) => {
    if (!server) throw new Error('The fixture servers start in test.before; use them inside tests.')
    return server
  }
  return {
    get site() {
      return started(site)
    },
    get other() {
      return started(other)
    },
  }
}

/**
 * The route the stuck fixture page (sites/stuck) reports to: each `/stuck/<what>` it requests is
 * emitted on `heard` (`/stuck/spinning`, `/stuck/hang`), and `/stuck/hang` is never answered, so a
 * run that settles waits on it.
 */
export function stuckRoute(heard: EventEmitter): Route {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!path.startsWith('/stuck/')) return false
    heard.emit(path)
    if (path !== '/stuck/hang') res.writeHead(204).end()
    return true
  }
}
