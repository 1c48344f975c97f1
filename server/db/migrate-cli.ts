import { authOptions } from '../auth';
import { loadConfig } from '../config';
import { openDatabase } from './index';
import { migrate } from './migrate';

const config = loadConfig();
const db = openDatabase(config);
try {
  const applied = await migrate(db, authOptions(config, db));
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.close();
}
