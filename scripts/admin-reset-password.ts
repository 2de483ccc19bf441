// npm run admin:reset-password [-- <loginId>]: a way back in when a password is lost.
// Gives the account (default: the first 최고관리자) a new one-time password, lifts a lock and
// ends its sessions; the owner chooses a password of their own at the next login.
// Works on the database `npm start` uses (DATA_DIR / DATABASE_URL), also while it runs.
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { accountsService } from '../server/modules/accounts/accounts.service.ts';
import { systemClock } from '../server/lib/clock.ts';
import { AppError } from '../server/lib/errors.ts';

const loginId = process.argv[2]?.trim() || undefined;
const config = loadConfig();
const handle = await openDatabase({ url: config.databaseUrl });
try {
  await migrateToLatest(handle.db);
  const r = await accountsService(handle.db, systemClock).resetFromConsole(loginId);
  console.log('');
  console.log(`  ${r.loginId}의 새 일회용 비밀번호: ${r.password}`);
  console.log('  로그인하면 바로 새 비밀번호를 정하게 됩니다. 이 계정의 다른 로그인은 모두 끝났습니다.');
  if (r.disabled) console.log('  이 계정은 사용 중지 상태입니다. 다른 최고관리자가 사용을 재개해야 로그인할 수 있습니다.');
  console.log('');
} catch (err) {
  console.error(err instanceof AppError ? `  ${err.message}` : err);
  process.exitCode = 1;
} finally {
  await handle.close();
}
