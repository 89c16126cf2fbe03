import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

/**
 * The arrows between rooms are held by ESLint's no-restricted-imports (eslint.config.js),
 * not by goodwill. Each case lints a one-line probe as if it were a file of the room,
 * with the project's own configuration: the fence must refuse it. A fence that quietly
 * stopped matching (a moved folder, a rewritten pattern) fails here.
 */
const eslint = new ESLint();

async function refusedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint fences', () => {
  const engineProbes = ['sync/sync-service.ts', 'mcp/mcp-hub.ts', 'search/search-index.ts', 'attachments/read-attached-file.ts', 'backup/index.ts', 'conversation-file/export-conversation.ts', 'pwa/manifest.ts', 'push/push-service.ts', 'inert/index.ts', 'ui/app-context.ts'];

  test.each(engineProbes)('the engine may not import ../%s', async (target) => {
    expect(await refusedImports('src/engine/fence-probe.ts', `import '../${target}';`)).toHaveLength(1);
  });

  // The inert path (src/inert/) is pure and below the subsystems that call it: restore, import, sync.
  test.each(['backup/index.ts', 'sync/sync-service.ts', 'conversation-file/export-conversation.ts', 'storage/db.ts', 'ui/app-context.ts', 'mcp/mcp-hub.ts'])('the inert path may not import ../%s', async (target) => {
    expect(await refusedImports('src/inert/fence-probe.ts', `import '../${target}';`)).toHaveLength(1);
  });

  test.each(['src/sync/fence-probe.ts', 'src/storage/fence-probe.ts', 'src/worker/fence-probe.ts'])('%s may not import the UI', async (file) => {
    expect(await refusedImports(file, "import '../ui/app-context.ts';")).toHaveLength(1);
    expect(await refusedImports(file, "import Card from '../ui/cards/ApprovalCard.svelte';")).toHaveLength(1);
  });

  // Storage persists every room's records (src/storage/records/) and sits below the rooms that use it.
  const storageProbes = ['sync/sync-service.ts', 'mcp/mcp-hub.ts', 'search/search-service.ts', 'attachments/read-attached-file.ts', 'backup/index.ts', 'conversation-file/export-conversation.ts', 'push/push-service.ts', 'pwa/manifest.ts', 'tools/save-note.ts', 'model/openai-model.ts', 'worker/protocol.ts'];

  test.each(storageProbes)('storage may not import ../%s', async (target) => {
    const refused = await refusedImports('src/storage/fence-probe.ts', `import '../${target}';`);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('src/storage must not depend on');
  });

  test('storage still imports its records, the engine and the common helpers', async () => {
    for (const source of ["import './records/sync-records.ts';", "import './records/mcp-server-record.ts';", "import '../engine/records/index.ts';", "import '../common/base64.ts';"]) {
      expect(await refusedImports('src/storage/fence-probe.ts', source)).toEqual([]);
    }
  });

  test('the engine still imports its own records and ports (the probe is not refused for another reason)', async () => {
    expect(await refusedImports('src/engine/fence-probe.ts', "import './records/index.ts';")).toEqual([]);
    expect(await refusedImports('src/sync/fence-probe.ts', "import '../engine/records/index.ts';")).toEqual([]);
    expect(await refusedImports('src/inert/fence-probe.ts', "import '../engine/records/index.ts';")).toEqual([]);
  });
});
