// npm start: builds once when there is no build yet (or it is older than the sources), then runs
// it under the supervisor of scripts/supervise.mjs, which keeps it running (see superviseServer).
import { buildIfStale, serverEntry } from './build-if-stale.mjs';
import { superviseServer } from './supervise.mjs';

if (!buildIfStale()) process.exit(1);
superviseServer(serverEntry);
