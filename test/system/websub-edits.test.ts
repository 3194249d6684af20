import { describeWebSubEdits } from '../helpers/websub-edits.js';
import { startWebSubWorld } from '../helpers/websub.js';
import { systemDatabaseUrl } from './database.js';

// Issue 28: WebSub notifications on edits and removals, on PostgreSQL (the suite:
// test/helpers/websub-edits.ts): `dealer-reviews remove` and imports from other processes reach
// the service through the database's change notifications.
describeWebSubEdits('PostgreSQL', async () => {
  const { url, cleanup } = await systemDatabaseUrl('');
  return { world: await startWebSubWorld({}, { databaseUrl: url }), cleanup };
});
