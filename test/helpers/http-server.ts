import type { IncomingMessage, Server } from 'node:http'
import type { JSONObject } from '@ai-sdk/provider'

// What the fake model servers share: a loopback port chosen by the system, a close that also ends
// connections left hanging on purpose, and the JSON request body.

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  origin: string
  close(): Promise<void>
}

export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || !address) throw new Error('The server has no TCP address')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The body parsed as a JSON object, or undefined when it is not one. */
export async function readJsonBody(req: IncomingMessage): Promise<JSONObject | undefined> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JSONObject) : undefined
  } catch {
    return undefined
  }
}
