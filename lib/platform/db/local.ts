/**
 * How every client reaches DynamoDB Local (the server's document client, the local table and stream
 * tools). DynamoDB Local started without -sharedDb keeps one database per access key and region, and
 * its every write costs time in proportion to all the stream records in its database; the test run
 * therefore gives each test file a database of its own by naming it in DYNAMODB_LOCAL_DATABASE (which
 * child processes inherit). Letters and digits only: DynamoDB Local refuses other access keys.
 * Unset, everything shares the `local` database, as `npm start` does.
 */
export function localDynamoConfig(endpoint: string) {
  return {
    endpoint,
    region: 'local',
    // Fixed placeholder credentials also keep a developer's AWS profile out of it.
    credentials: { accessKeyId: process.env.DYNAMODB_LOCAL_DATABASE || 'local', secretAccessKey: 'local' },
  }
}
