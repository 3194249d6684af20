import { describeWebSubEdits } from '../helpers/websub-edits.js';
import { startWebSubWorld } from '../helpers/websub.js';

// Issue 28: WebSub notifications on edits and removals, on SQLite (the suite: test/helpers/websub-edits.ts).
describeWebSubEdits('SQLite', async () => ({ world: await startWebSubWorld() }));
