import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

// A static file server on 127.0.0.1 for the fixture pages. It serves the folder above the fixtures,
// as the tests serve test/fixtures/, so a page can load what its neighbours share; the same port is
// also reachable as localhost, a second origin for a page's cross-origin frame.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
}

export interface StaticServer {
  origin: string
  /** The URL of a file under the served folder, by its path there with `/` between parts. */
  url(path: string): string
  close(): Promise<void>
}

export async function serveDirectory(root: string): Promise<StaticServer> {
  const base = root.endsWith(sep) ? root : `${root}${sep}`
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path))
      if (!file.startsWith(base)) return void res.writeHead(403).end()
      const body = await readFile(file)
      // no-store: every fresh load of a page must fetch it, as a first visit does.
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
      res.end(body)
    } catch {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    origin,
    url: (path) => new URL(path.split('/').map(encodeURIComponent).join('/'), `${origin}/`).href,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
