import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams'
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda'
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs'
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation'
import { mockClient } from 'aws-sdk-client-mock'
import { beforeEach, describe, expect, it } from 'vitest'
import { deadLetterQueues, redrive } from '../../../scripts/cli/dead-letters.ts'

/** `dlq redrive` against mocked SQS, DynamoDB Streams and Lambda (no local form of these here). */
const sqs = mockClient(SQSClient)
const streams = mockClient(DynamoDBStreamsClient)
const lambda = mockClient(LambdaClient)
const clients = () => ({
  sqs: new SQSClient({}),
  streams: new DynamoDBStreamsClient({}),
  lambda: new LambdaClient({}),
})
const queue = { consumer: 'outbox-sender', url: 'https://sqs.eu-west-1.amazonaws.com/1/dlq' }
const functionArn = 'arn:aws:lambda:eu-west-1:1:function:outbox-sender'

const failure = (start: string, end: string) =>
  JSON.stringify({
    requestContext: { functionArn, condition: 'RetryAttemptsExhausted' },
    DDBStreamBatchInfo: {
      shardId: 'shard-1',
      streamArn: 'arn:stream',
      startSequenceNumber: start,
      endSequenceNumber: end,
    },
  })
const record = (seq: string) => ({ eventName: 'INSERT' as const, dynamodb: { SequenceNumber: seq } })
const payload = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)) as never

beforeEach(() => {
  sqs.reset()
  streams.reset()
  lambda.reset()
  streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' })
  streams
    .on(GetRecordsCommand)
    .resolvesOnce({ Records: [record('100'), record('101'), record('102')], NextShardIterator: 'it-2' })
    .resolves({ Records: [] })
})

describe('dlq redrive (stream consumer)', () => {
  it('reads the failed batch back from the stream, invokes the consumer and deletes the failure record', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [{ Body: failure('100', '101'), ReceiptHandle: 'r1' }] })
      .resolves({ Messages: [] })
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ batchItemFailures: [] }) })
    const lines: string[] = []
    expect(await redrive(queue, clients(), (l) => lines.push(l))).toEqual({ redriven: 1, left: 0 })
    expect(streams.commandCalls(GetShardIteratorCommand)[0]!.args[0].input).toMatchObject({
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: '100',
    })
    const invoked = lambda.commandCalls(InvokeCommand)[0]!.args[0].input
    expect(invoked.FunctionName).toBe(functionArn)
    // Exactly the batch: the record after its end sequence number is left out.
    expect(JSON.parse(new TextDecoder().decode(invoked.Payload as Uint8Array))).toEqual({
      Records: [record('100'), record('101')],
    })
    expect(sqs.commandCalls(DeleteMessageCommand)[0]!.args[0].input.ReceiptHandle).toBe('r1')
  })

  it('keeps the failure record when the consumer still reports a failed item', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [{ Body: failure('100', '102'), ReceiptHandle: 'r1' }] })
      .resolves({ Messages: [] })
    lambda
      .on(InvokeCommand)
      .resolves({ Payload: payload({ batchItemFailures: [{ itemIdentifier: '101' }] }) })
    expect(await redrive(queue, clients(), () => {})).toEqual({ redriven: 0, left: 1 })
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0)
  })

  it('hands a queue consumer’s messages back to SQS to move to their source queue', async () => {
    sqs.on(ReceiveMessageCommand).resolves({ Messages: [{ Body: '{"webhook":1}', ReceiptHandle: 'r1' }] })
    sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { QueueArn: 'arn:aws:sqs:eu-west-1:1:dlq' } })
    await redrive(queue, clients(), () => {})
    expect(sqs.commandCalls(StartMessageMoveTaskCommand)[0]!.args[0].input).toEqual({
      SourceArn: 'arn:aws:sqs:eu-west-1:1:dlq',
    })
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0)
  })
})

describe('dlq list', () => {
  const cloudFormation = mockClient(CloudFormationClient)

  it("finds every consumer's queue in the outputs of its area stack, skipping an area not deployed", async () => {
    cloudFormation.reset()
    cloudFormation.on(DescribeStacksCommand).rejects(new Error('Stack with id X does not exist'))
    const stack = (name: string, consumer: string) =>
      cloudFormation.on(DescribeStacksCommand, { StackName: name }).resolves({
        Stacks: [
          {
            StackName: name,
            CreationTime: new Date(),
            StackStatus: 'CREATE_COMPLETE',
            Outputs: [
              { OutputKey: 'ExportsOutputRefSomething', OutputValue: 'x' },
              {
                OutputKey: `DeadLetters${consumer}`,
                OutputValue: `https://sqs/${consumer}`,
                Description: `Dead-letter queue of ${consumer}`,
              },
            ],
          },
        ],
      })
    stack('Einvoicing-prod-Events', 'webhook-deliver')
    stack('Einvoicing-prod-Notifications', 'outbox-sender')
    expect(await deadLetterQueues('prod')).toEqual([
      { consumer: 'webhook-deliver', url: 'https://sqs/webhook-deliver' },
      { consumer: 'outbox-sender', url: 'https://sqs/outbox-sender' },
    ])
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'Einvoicing-prod-Payments' })
      .rejects(new Error('Throttling'))
    await expect(deadLetterQueues('prod')).rejects.toThrow('Throttling')
  })
})
