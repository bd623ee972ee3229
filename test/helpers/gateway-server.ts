import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { createGateway, type GatewayProvider } from '@ai-sdk/gateway'
import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4CallOptions,
  JSONObject,
  LanguageModelV4,
  LanguageModelV4CallOptions,
} from '@ai-sdk/provider'
import { listen, readJsonBody } from './http-server.ts'

// A stand-in for Vercel AI Gateway on 127.0.0.1, so that the real `@ai-sdk/gateway` provider sends its
// requests over HTTP just as it would to the gateway: `POST {baseURL}/decision-model` and
// `{baseURL}/language-model`, a bearer key, the model id and specification version in headers, JSON
// in and out. In-process models answer behind it, and every answer carries the gateway's cost and
// generation id in `providerMetadata.gateway`. A test scripts faults per endpoint (error statuses
// with headers, malformed bodies, a socket that never answers) for the next requests.

/** The key `provider` sends; any other key gets the gateway's 401. */
export const GATEWAY_API_KEY = 'test-gateway-key'

/** The real gateway's path, so that the provider builds the same URLs as in production. */
const BASE_PATH = '/v4/ai'

export type Endpoint = 'decision-model' | 'language-model'

/** A reply the server sends instead of asking a model: a status with headers and a body (JSON or raw text), or no reply at all. */
export type Fault = { status: number; headers?: Record<string, string>; body: string | JSONObject } | 'hang'

export interface ReceivedRequest {
  endpoint: Endpoint
  /** `ai-model-id` or `ai-language-model-id`. */
  modelId: string
  headers: IncomingHttpHeaders
  body: JSONObject
  /** `performance.now()` when the request arrived. */
  at: number
  /**
   * Resolves with `performance.now()` when the client closed the connection before any reply, as an
   * aborted fetch does; never settles for a request that was answered.
   */
  abandoned: Promise<number>
}

export interface GatewayServerOptions {
  decisionModels?: Record<string, Experimental_DecisionModelV4>
  languageModels?: Record<string, LanguageModelV4>
}

export interface GatewayServer {
  /** `createGateway({ baseURL, apiKey })` for this server, as a user would configure the real one. */
  provider: GatewayProvider
  baseURL: string
  /** Every request received, in order, faults included. */
  requests: ReceivedRequest[]
  /** The next requests to `endpoint` get these faults, one each, in order; later ones reach the models again. */
  fail(endpoint: Endpoint, ...faults: Fault[]): void
  close(): Promise<void>
}

/** `providerMetadata.gateway.cost` of each answer: a decimal string in USD, as the gateway sends it. */
export const GATEWAY_COST: Record<Endpoint, string> = { 'decision-model': '0.0002', 'language-model': '0.001' }

/** The gateway's error body: `{ error: { message, type, param? }, generationId? }`. */
export function gatewayError(type: string, message: string, extra: { param?: JSONObject; generationId?: string } = {}): JSONObject {
  return {
    error: { message, type, ...(extra.param ? { param: extra.param } : {}) },
    ...(extra.generationId ? { generationId: extra.generationId } : {}),
  }
}

export async function serveGateway(options: GatewayServerOptions = {}): Promise<GatewayServer> {
  const requests: ReceivedRequest[] = []
  const faults: Record<Endpoint, Fault[]> = { 'decision-model': [], 'language-model': [] }
  let generations = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const endpoint = endpointOf(req)
    if (!endpoint) return send(res, 404, gatewayError('not_found', `No route ${req.method} ${req.url}`))
    const body = await readJsonBody(req)
    const modelId = String(req.headers[endpoint === 'decision-model' ? 'ai-model-id' : 'ai-language-model-id'] ?? '')
    const abandoned = new Promise<number>((resolve) => {
      res.once('close', () => {
        if (!res.writableFinished) resolve(performance.now())
      })
    })
    requests.push({ endpoint, modelId, headers: req.headers, body: body ?? {}, at: performance.now(), abandoned })

    const fault = faults[endpoint].shift()
    if (fault === 'hang') return
    if (fault) return send(res, fault.status, fault.body, fault.headers)

    if (req.headers.authorization !== `Bearer ${GATEWAY_API_KEY}`) {
      return send(res, 401, gatewayError('authentication_error', 'Invalid API key'))
    }
    const version = endpoint === 'decision-model' ? 'ai-decision-model-specification-version' : 'ai-language-model-specification-version'
    if (req.headers[version] !== '4') return send(res, 400, gatewayError('invalid_request_error', `${version} must be 4`))
    if (!body) return send(res, 400, gatewayError('invalid_request_error', 'The body is not JSON'))

    const generationId = `gen_${++generations}`
    const gateway = { cost: GATEWAY_COST[endpoint], generationId }
    try {
      if (endpoint === 'decision-model') {
        const model = options.decisionModels?.[modelId]
        if (!model) return send(res, 404, modelNotFound(modelId))
        const result = await model.doDecide({
          state: body.stateParts,
          questions: body.questions,
          maxOutputTokens: body.maxOutputTokens,
          reasoning: body.reasoning,
          providerOptions: body.providerOptions,
        } as unknown as Experimental_DecisionModelV4CallOptions)
        return send(res, 200, toJson({ ...result, response: undefined, providerMetadata: { ...result.providerMetadata, gateway } }))
      }
      if (req.headers['ai-language-model-streaming'] !== 'false') {
        return send(res, 400, gatewayError('invalid_request_error', 'This test server answers only non-streaming requests'))
      }
      const model = options.languageModels?.[modelId]
      if (!model) return send(res, 404, modelNotFound(modelId))
      const result = await model.doGenerate(body as unknown as LanguageModelV4CallOptions)
      return send(
        res,
        200,
        toJson({
          content: result.content,
          finishReason: result.finishReason,
          usage: result.usage,
          warnings: result.warnings,
          providerMetadata: { ...result.providerMetadata, gateway },
        }),
      )
    } catch (error) {
      // A model that fails answers like the gateway's own failure, with its message for the test to read.
      return send(res, 500, gatewayError('internal_server_error', error instanceof Error ? error.message : String(error), { generationId }))
    }
  }

  const listening = await listen(
    createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) send(res, 500, gatewayError('internal_server_error', String(error)))
      })
    }),
  )
  const baseURL = `${listening.origin}${BASE_PATH}`
  return {
    provider: createGateway({ baseURL, apiKey: GATEWAY_API_KEY }),
    baseURL,
    requests,
    fail: (endpoint, ...list) => faults[endpoint].push(...list),
    close: listening.close,
  }
}

function endpointOf(req: IncomingMessage): Endpoint | undefined {
  if (req.method !== 'POST') return undefined
  const path = new URL(req.url ?? '/', 'http://x').pathname
  if (path === `${BASE_PATH}/decision-model`) return 'decision-model'
  if (path === `${BASE_PATH}/language-model`) return 'language-model'
  return undefined
}

function modelNotFound(modelId: string): JSONObject {
  return gatewayError('model_not_found', `Model ${modelId} not found`, { param: { modelId } })
}

/** Results hold `undefined` fields and Dates; the wire carries plain JSON. */
function toJson(value: unknown): JSONObject {
  return JSON.parse(JSON.stringify(value)) as JSONObject
}

function send(res: ServerResponse, status: number, body: string | JSONObject, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}
