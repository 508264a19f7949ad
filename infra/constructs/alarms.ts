import type { IAspect } from 'aws-cdk-lib'
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch'
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions'
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns'
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions'
import type { IConstruct } from 'constructs'
import { Construct } from 'constructs'
import { acknowledge } from './nag.ts'

export interface AlarmTopicProps {
  stage: string
  /** Who is paged: each address gets a subscription to confirm (the stage settings' `alarmEmails`). */
  emails?: readonly string[]
}

/** The stage's one alarm topic: every alarm of the stage notifies it (AlarmsNotify). */
export class AlarmTopic extends Construct {
  readonly topic: Topic

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id)
    this.topic = new Topic(this, 'Topic', {
      topicName: `einvoicing-${props.stage}-alarms`,
      displayName: `E-invoicing ${props.stage} alarms`,
      enforceSSL: true,
    })
    for (const email of props.emails ?? []) {
      const subscription = this.topic.addSubscription(new EmailSubscription(email))
      acknowledge(
        subscription,
        'Serverless-SNSRedrivePolicy',
        'An e-mail that cannot be delivered is not worth redelivering later: the alarm stays in ALARM in CloudWatch and on the dashboard until someone looks',
      )
    }
    acknowledge(
      this.topic,
      'AwsSolutions-SNS2',
      'Alarm notifications carry alarm names and states, no customer data; CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key, and a key of its own per stage would cost more than it protects',
    )
  }
}

/**
 * Attaches the topic to every CloudWatch alarm in the scope it is added to, including alarms added
 * later by other constructs (the asynchronous consumers): no alarm can be created without an action.
 */
export class AlarmsNotify implements IAspect {
  private readonly action: SnsAction
  private readonly done = new WeakSet<Alarm>()

  constructor(topic: ITopic) {
    this.action = new SnsAction(topic)
  }

  visit(node: IConstruct): void {
    if (node instanceof Alarm && !this.done.has(node)) {
      this.done.add(node)
      node.addAlarmAction(this.action)
    }
  }
}
