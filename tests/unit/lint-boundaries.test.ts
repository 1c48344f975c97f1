import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The layer boundaries of eslint.config.js, tried with code that crosses them, linted as if it
// were at the path given (the config applies by path; nothing is written).
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// The first lint loads typescript-eslint and the config (3–5 s on a busy 2-core machine).
describe('layer boundaries in npm run lint', { timeout: 30_000 }, () => {
  test('a service importing the HTTP layer is refused', async () => {
    const errors = await boundaryErrors(
      'server/services/boundary-fixture.ts',
      "import { registerErrorHandler } from '../http/errors';\nexport const handler = registerErrorHandler;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Below the HTTP layer')]);
  });

  test('a service importing Fastify is refused', async () => {
    const errors = await boundaryErrors('server/db/boundary-fixture.ts', "import type { FastifyReply } from 'fastify';\nexport type Reply = FastifyReply;\n");
    expect(errors).toHaveLength(1);
  });

  test.each([
    ['../../server/db', 'shared/domain/boundary-fixture.ts'],
    ['../../web/lib/api', 'shared/api/boundary-fixture.ts'],
    ['../../extension/lib/share', 'shared/ui/boundary-fixture.ts'],
  ])('shared/ importing %s is refused', async (from, filePath) => {
    const errors = await boundaryErrors(filePath, `import * as other from '${from}';\nexport const x = other;\n`);
    expect(errors).toEqual([expect.stringContaining('shared/ imports nothing')]);
  });

  test.each([
    ['web/features/supercurations/boundary-fixture.tsx', '../links/FeedList', 'A web feature imports no other feature'],
    ['web/features/import/boundary-fixture.ts', '../../features/account/keys', 'A web feature imports no other feature'],
    ['web/features/links/boundary-fixture.ts', '../../layouts/ProtectedLayout', 'A web feature imports no other feature'],
    ['web/entities/links/boundary-fixture.ts', '../../features/links/FeedList', 'web/entities import no feature'],
    ['web/lib/boundary-fixture.ts', '../entities/session/useSession', 'web/lib and web/components import no'],
  ])('%s importing %s is refused', async (filePath, from, message) => {
    const errors = await boundaryErrors(filePath, `import * as other from '${from}';\nexport const x = other;\n`);
    expect(errors).toEqual([expect.stringContaining(message)]);
  });

  test('a web feature may import its own modules, entities and what the app shares', async () => {
    const code = [
      "import { FeedList } from './FeedList';",
      "import { LinkCard } from '../../entities/links/LinkCard';",
      "import { api } from '../../lib/api';",
      "import { EmptyState } from '../../components/EmptyState';",
      "import { paths } from '../../../shared/domain';",
      'export const x = [FeedList, LinkCard, api, EmptyState, paths];',
    ].join('\n');
    expect(await boundaryErrors('web/features/links/boundary-fixture.tsx', code)).toEqual([]);
  });

  test('the HTTP layer may import services, and shared/ its own modules', async () => {
    expect(await boundaryErrors('server/http/boundary-fixture.ts', "import { paths } from '../../shared/domain';\nimport * as s from '../services/links';\nexport const x = [paths, s];\n")).toEqual([]);
    expect(await boundaryErrors('shared/api/boundary-fixture.ts', "import { paths } from '../domain';\nexport const x = paths;\n")).toEqual([]);
  });
});
