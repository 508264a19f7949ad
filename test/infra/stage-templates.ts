import { type CfnElement, Stack } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import type { IConstruct } from 'constructs'
import { buildStage, type Stage, type StageProps } from '../../infra/stage.ts'
import { cdkApp } from '../support/cdk-app.ts'

/** A stage's stacks synthesized in-process, with NodejsFunction bundling skipped (seconds, not minutes). */
export interface SynthesizedStage {
  stage: Stage
  /** The edge, area and API stage stacks as one template, so counts and grants read as one deployment. */
  apiTemplate: Template
  dataTemplate: Template
  /** Each stack's own template, by stack name. */
  templates: Map<string, Template>
}

export function synthStage(props: StageProps): SynthesizedStage {
  const app = cdkApp({ context: { 'aws:cdk:bundling-stacks': [] } })
  const stage = buildStage(app, props)
  const templates = new Map(stage.stacks.map((s) => [s.stackName, Template.fromStack(s)]))
  return {
    stage,
    templates,
    apiTemplate: mergeTemplates(
      [stage.edge, ...stage.areas.values(), stage.apiStage].map((s) => templates.get(s.stackName)!),
    ),
    dataTemplate: templates.get(stage.data.stackName)!,
  }
}

/**
 * Several stacks' templates as one. Logical ids are unique within a stack only: a clash would make
 * the merged view lie, so it fails instead.
 */
export function mergeTemplates(templates: Template[]): Template {
  const resources: Record<string, unknown> = {}
  const outputs: Record<string, unknown> = {}
  for (const json of templates.map((t) => t.toJSON())) {
    for (const [id, resource] of Object.entries<unknown>(json.Resources ?? {})) {
      if (id in resources) throw new Error(`logical id ${id} is in two stacks: the merged template would lie`)
      resources[id] = resource
    }
    // Outputs of the same name (CDK's Exports* for the same value) may repeat; the last wins.
    Object.assign(outputs, json.Outputs ?? {})
  }
  return Template.fromJSON({ Resources: resources, Outputs: outputs })
}

/** A construct's logical id in its own stack (the default child's, for an L2). */
export const logicalIdOf = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement
  return Stack.of(element).getLogicalId(element)
}
