import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { JSONObject } from '@ai-sdk/provider'
import { listen, readJsonBody } from './http-server.ts'

// A local OpenAI-compatible chat server on 127.0.0.1, as Ollama, vLLM and LM Studio serve one:
// `POST /v1/chat/completions` with `{ model, messages, response_format, … }`, answered with one
// assistant message whose content is text. The test writes that text from the request.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | { type: string; text?: string }[]
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  response_format?: { type: string; json_schema?: { name: string; schema: JSONObject; strict?: boolean } }
  max_tokens?: number
}

export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>/v1`, what `createOpenAICompatible({ baseURL })` takes. */
  baseURL: string
  /** Every chat request received, in order. */
  requests: ChatRequest[]
  close(): Promise<void>
}

/** Token counts the server reports for every reply, so that usage reaches `profiling().cost`. */
export const CHAT_USAGE = { prompt_tokens: 300, completion_tokens: 20 }

export async function serveOpenAICompatible(reply: (request: ChatRequest) => string): Promise<OpenAICompatibleServer> {
  const requests: ChatRequest[] = []
  let completions = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return send(res, 404, { error: { message: `No route ${req.method} ${path}` } })
    const body = await readJsonBody(req)
    if (!body || typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      return send(res, 400, { error: { message: 'Expected { model, messages }' } })
    }
    const request = body as unknown as ChatRequest
    requests.push(request)
    const content = reply(request)
    send(res, 200, {
      id: `chatcmpl-${++completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { ...CHAT_USAGE, total_tokens: CHAT_USAGE.prompt_tokens + CHAT_USAGE.completion_tokens },
    })
  }

  const listening = await listen(
    createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        // The reply function failing is the test's bug: a 500 with its message shows it in the run's error.
        if (!res.headersSent) send(res, 500, { error: { message: error instanceof Error ? error.message : String(error) } })
      })
    }),
  )
  return { baseURL: `${listening.origin}/v1`, requests, close: listening.close }
}

/** The text of the last user message, however the client laid out its content. */
export function lastUserText(request: ChatRequest): string {
  const message = request.messages.findLast((candidate) => candidate.role === 'user')
  if (!message) throw new Error('The chat request has no user message')
  return typeof message.content === 'string' ? message.content : message.content.map((part) => part.text ?? '').join('')
}

function send(res: ServerResponse, status: number, body: JSONObject): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
