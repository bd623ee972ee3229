// puppeteer-agent/queue: many worker processes, on as many machines, on one bullmq queue in Redis.
// Apart from the main entry, so that `require('puppeteer-agent')` loads no Redis client.
export { startWorker } from './worker.ts'
export { produce } from './producer.ts'
export { readJobsFile } from './jobs-file.ts'
export { parseJob } from './job-shape.ts'
export { redisCache } from './redis.ts'
