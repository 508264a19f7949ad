import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation'
import { AREA_STACKS, stackTitle } from '../../infra/stacks/areas.ts'

/**
 * `--stage <name>`: the CLI works against a deployed stage, taking what it needs from the stacks'
 * outputs (infra/stacks/data-stack.ts DATA_OUTPUTS, the API stage stack's ApiUrl, the area stacks'
 * DeadLetters*; infra/stage.ts names them) instead
 * of --table/--endpoint. Uses the caller's AWS profile and region.
 */

export const stackNames = (stage: string) => ({
  data: `Einvoicing-${stage}-Data`,
  api: `Einvoicing-${stage}-Api`,
  /** The `$default` stage and the ApiUrl output (the `-Api` stack's before stage settings, issue 34). */
  apiStage: `Einvoicing-${stage}-ApiStage`,
  /** One per area (infra/stacks/areas.ts): their outputs name the consumers' dead-letter queues. */
  areas: AREA_STACKS.map((area) => `Einvoicing-${stage}-${stackTitle(area)}`),
})

export interface StackOutput {
  key: string
  value: string
  description?: string
}

export async function stackOutputs(
  stackName: string,
  client = new CloudFormationClient({}),
): Promise<StackOutput[]> {
  const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }))
  const stack = Stacks?.[0]
  if (!stack) throw new Error(`Stack ${stackName} was not found in this account and region`)
  return (stack.Outputs ?? []).map((o) => ({
    key: o.OutputKey ?? '',
    value: o.OutputValue ?? '',
    description: o.Description,
  }))
}

/**
 * Sets the environment the commands read (as the CDK stack sets it for the functions): TABLE_NAME and
 * DATA_KEY_ARN from the data stack, API_URL from the API stage stack, and no DynamoDB Local endpoint.
 */
export async function useStage(stage: string, client = new CloudFormationClient({})): Promise<void> {
  const names = stackNames(stage)
  const data = new Map((await stackOutputs(names.data, client)).map((o) => [o.key, o.value]))
  const table = data.get('TableName')
  if (!table) throw new Error(`${names.data} has no TableName output: deploy the current stack first`)
  process.env.TABLE_NAME = table
  const keyArn = data.get('DataKeyArn')
  if (keyArn) process.env.DATA_KEY_ARN = keyArn
  delete process.env.DYNAMODB_ENDPOINT
  process.env.AWS_REGION ??= await client.config.region()
  process.env.STAGE = stage
  const urlOf = async (stack: string) =>
    (await stackOutputs(stack, client).catch(() => [])).find((o) => o.key === 'ApiUrl')?.value
  const url = (await urlOf(names.apiStage)) ?? (await urlOf(names.api))
  if (url) process.env.API_URL = url
}
