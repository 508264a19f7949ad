import type { TestProject } from 'vitest/node'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'

declare module 'vitest' {
  interface ProvidedContext {
    dynamoEndpoint: string
  }
}

/** One DynamoDB Local for the whole test run (about 3 s to start), stopped when the run ends. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ heapMb: 768 })
  project.provide('dynamoEndpoint', dynamo.endpoint)
  return async () => {
    await dynamo.stop()
  }
}
