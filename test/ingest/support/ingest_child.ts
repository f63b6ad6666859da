// A separate ingester process for the crash test: ingests a datastore folder into a database and
// exits 0 at its end. With KILL_AT_LEDGER=N it SIGKILLs itself inside ledger N's database
// transaction, after every row was written and before COMMIT.
import { openDatabase, type DatabaseTarget } from '../../../src/db/database.js';
import { migrate } from '../../../src/db/migrate.js';
import { datastoreSource, startIngester } from '../../../src/ingest/index.js';

const [targetJson = '', folder = '', passphrase = ''] = process.argv.slice(2);
const killAt = Number(process.env.KILL_AT_LEDGER ?? 0);
const db = await openDatabase(JSON.parse(targetJson) as DatabaseTarget);
await migrate(db);
const ingester = await startIngester({
  db,
  source: datastoreSource(folder),
  networkPassphrase: passphrase,
  beforeCommit: (sequence) => {
    if (sequence === killAt) process.kill(process.pid, 'SIGKILL');
  },
  onLedger: (sequence) => process.stdout.write(`ledger ${sequence}\n`),
});
const error = await ingester.done;
await db.close();
if (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
